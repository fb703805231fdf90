package org.largecat.data;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads a data file a block of examples at a time, so that a pass over it (evaluation, prediction)
 * holds one block, not the file. The shape D and K is fixed by the options (a model's); every check
 * and message is {@link DatasetReader}'s, with line numbers counted through the whole file. The
 * end-of-file checks (an empty file, fewer rows than the header declares) run when the end is
 * reached, after the blocks before it were handed out.
 */
public final class DatasetBlocks implements Closeable {
  /** Examples per block when not told otherwise. */
  public static final int DEFAULT_ROWS = 1 << 14;

  /** Stored values at which a block ends early, so that wide rows keep a block small too. */
  static final long MAX_VALUES = 1L << 22;

  private final DatasetReader reader;
  private final int blockRows;

  private DatasetBlocks(DatasetReader reader, int blockRows) {
    this.reader = reader;
    this.blockRows = blockRows;
  }

  /**
   * Opens {@code file}; {@code options} must give D (≥ 0) and K (≥ 1), and blocks hold at most
   * {@code blockRows} examples.
   */
  public static DatasetBlocks open(Path file, ReadOptions options, int blockRows)
      throws IOException {
    if (options.columns() < 0 || options.classes() < 1 || blockRows < 1) {
      throw new IllegalArgumentException(
          "reading in blocks needs D and K fixed and blockRows >= 1; got D = "
              + options.columns()
              + ", K = "
              + options.classes()
              + ", blockRows = "
              + blockRows);
    }
    return new DatasetBlocks(DatasetReader.open(file, options), blockRows);
  }

  /** The next block of examples, or null after the last one. */
  public Dataset next() throws IOException {
    return reader.readRows(blockRows, MAX_VALUES) ? reader.takeRows() : null;
  }

  /** The examples handed out so far: the first example of the next block is this + 1. */
  public long examplesRead() {
    return reader.rowsTaken();
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
