package org.largecat;

import java.io.IOException;

/**
 * A file whose path was accepted could not be written once the work was done (a full disk, a quota,
 * an I/O error): a failure of the run, not of its input; the old file is unchanged.
 */
public final class WriteFailedException extends IOException {
  private static final long serialVersionUID = 1L;

  public WriteFailedException(String message, IOException cause) {
    super(message, cause);
  }
}
