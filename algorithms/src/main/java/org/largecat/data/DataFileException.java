package org.largecat.data;

import java.io.IOException;
import java.nio.file.Path;

/** A data file that cannot be read as its format says: names the file, the line and the reason. */
public class DataFileException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long line;
  private final String reason;

  public DataFileException(Path file, long line, String reason) {
    super(file + (line > 0 ? ":" + line : "") + ": " + reason);
    this.file = file;
    this.line = line;
    this.reason = reason;
  }

  /** Why the file could not be read, without the file and line. */
  public String reason() {
    return reason;
  }

  /** The file that could not be read. */
  public Path file() {
    return file;
  }

  /** The 1-based line of the problem, or 0 when it concerns the whole file. */
  public long line() {
    return line;
  }
}
