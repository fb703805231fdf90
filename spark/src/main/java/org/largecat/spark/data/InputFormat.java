package org.largecat.spark.data;

import java.util.Locale;
import org.largecat.data.TextFormat;

/** The data files {@link Inputs} reads: the two text formats, and Spark's Parquet and CSV. */
public enum InputFormat {
  /** The Extreme Classification text format, split across partitions by {@link XcTextSource}. */
  XC,
  /** LibSVM text, through Spark's {@code libsvm} source (1-based feature indices). */
  LIBSVM,
  /** Parquet: a label column and a vector features column, or numeric columns to assemble. */
  PARQUET,
  /** CSV with a header line: a label column and numeric feature columns. */
  CSV;

  /**
   * The format a file's name says: {@code .parquet}, {@code .csv}, {@code .libsvm}, {@code .svm};
   * anything else is Extreme Classification text, as for the single-machine commands.
   */
  public static InputFormat ofName(String path) {
    String name = path.toLowerCase(Locale.ROOT).replaceAll("/+$", "");
    if (name.endsWith(".parquet")) {
      return PARQUET;
    }
    if (name.endsWith(".csv")) {
      return CSV;
    }
    if (name.endsWith(".libsvm") || name.endsWith(".svm")) {
      return LIBSVM;
    }
    return XC;
  }

  /** The single-machine text format of the same name, or null for Parquet and CSV. */
  public TextFormat textFormat() {
    return switch (this) {
      case XC -> TextFormat.EXTREME_CLASSIFICATION;
      case LIBSVM -> TextFormat.LIBSVM;
      case PARQUET, CSV -> null;
    };
  }
}
