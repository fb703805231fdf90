package org.largecat.cli.spark;

import org.largecat.data.ReadOptions;
import org.largecat.spark.data.InputFormat;

/**
 * A data file for a Spark command: its path (any file system Spark reads), its format, and the
 * index bases and shape of {@link org.largecat.spark.data.Inputs#read} (for Parquet and CSV only
 * the shape counts).
 */
public record InputSpec(String path, InputFormat format, ReadOptions options) {
  /** The same file, which must have {@code columns} features and {@code classes} classes. */
  public InputSpec withShape(int columns, int classes) {
    return new InputSpec(path, format, options.withShape(columns, classes));
  }
}
