package org.largecat.data;

import java.nio.file.Path;

/**
 * A row that does not fit the D or K a file was read with ({@link ReadOptions#columns()}, {@link
 * ReadOptions#classes()}): a feature index at or beyond D or a label at or beyond K. That shape
 * came from elsewhere (a model, a training set), which the caller can name.
 */
public final class OutOfShapeException extends DataFileException {
  private static final long serialVersionUID = 1L;

  public OutOfShapeException(Path file, long line, String reason) {
    super(file, line, reason);
  }
}
