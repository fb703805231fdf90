package org.largecat.data;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.largecat.IoErrors;

/**
 * Reads lines, as {@link java.io.BufferedReader#readLine} does, but refuses a line longer than a
 * cap before holding it whole, so that memory stays bounded on any input (a binary file without
 * line breaks, a runaway line).
 */
public final class BoundedLineReader {
  /**
   * The longest line read, in characters (16 Mi): a row of a million sparse features fits, and the
   * line buffer stays small beside any model.
   */
  public static final int MAX_LINE = 1 << 24;

  private final Reader in;
  private final Path file;
  private final int maxLine;
  private final char[] buffer = new char[1 << 16];
  private final StringBuilder line = new StringBuilder();
  private int position;
  private int limit;
  private long lineNumber;

  /** Reads {@code in}, the text of {@code file}, refusing lines longer than {@code maxLine}. */
  public BoundedLineReader(Reader in, Path file, int maxLine) {
    this.in = in;
    this.file = file;
    this.maxLine = maxLine;
  }

  /** {@code file} as UTF-8 text, lines capped at {@link #MAX_LINE}; a failure names the file. */
  public static BoundedLineReader open(Path file) throws IOException {
    try {
      return new BoundedLineReader(
          Files.newBufferedReader(file, StandardCharsets.UTF_8), file, MAX_LINE);
    } catch (IOException e) {
      throw IoErrors.explain(file, "cannot read", e);
    }
  }

  /** The next line without its terminator (\n, \r\n or \r), or null at the end of the input. */
  public String readLine() throws IOException {
    line.setLength(0);
    boolean any = false;
    while (true) {
      if (position == limit) {
        limit = in.read(buffer, 0, buffer.length);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          return any ? finish() : null;
        }
      }
      any = true;
      int start = position;
      while (position < limit && buffer[position] != '\n' && buffer[position] != '\r') {
        position++;
      }
      if (line.length() + (position - start) > maxLine) {
        throw new DataFileException(
            file,
            lineNumber + 1,
            "the line is longer than " + maxLine + " characters (is this a text data file?)");
      }
      line.append(buffer, start, position - start);
      if (position < limit) {
        char end = buffer[position++];
        if (end == '\r') {
          skipLineFeed();
        }
        return finish();
      }
    }
  }

  /** Closes the reader it reads. */
  public void close() throws IOException {
    in.close();
  }

  private void skipLineFeed() throws IOException {
    if (position == limit) {
      limit = Math.max(in.read(buffer, 0, buffer.length), 0);
      position = 0;
    }
    if (position < limit && buffer[position] == '\n') {
      position++;
    }
  }

  private String finish() {
    lineNumber++;
    return line.toString();
  }
}
