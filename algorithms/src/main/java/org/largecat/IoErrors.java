package org.largecat;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Turns the JDK's terse I/O exceptions (a bare path for a missing file, "Is a directory", "Input
 * length = 1") into one line that names the file, what failed and why.
 */
public final class IoErrors {
  private IoErrors() {}

  /**
   * {@code e} as an IOException whose message is "FILE: ACTION: why"; one that already starts with
   * the file's name is returned as it is.
   */
  public static IOException explain(Path file, String action, IOException e) {
    String message = e.getMessage();
    if (message != null
        && message.startsWith(file.toString())
        && !(e instanceof FileSystemException)) {
      return e;
    }
    return new IOException(file + ": " + action + ": " + reason(e), e);
  }

  /** Why {@code e} happened, in words, without the file's name: "permission denied". */
  public static String reason(IOException e) {
    String message = e.getMessage();
    return switch (e) {
      case NoSuchFileException x -> "it does not exist";
      case AccessDeniedException x -> "permission denied";
      case CharacterCodingException x -> "it is not UTF-8 text (a binary or compressed file?)";
      case FileSystemException x -> x.getReason() == null ? String.valueOf(message) : x.getReason();
      default -> message == null ? e.toString() : message;
    };
  }
}
