package org.largecat.data;

/** The sparse text formats {@link DatasetReader} understands. */
public enum TextFormat {
  /**
   * The Extreme Classification repository's format: a header {@code N D L}, then one example per
   * line, {@code l1,l2,... f:v f:v ...}; feature indices 0-based unless told otherwise.
   */
  EXTREME_CLASSIFICATION,
  /**
   * LibSVM / svmlight: no header, {@code label f:v f:v ...}, feature indices 1-based unless told
   * otherwise.
   */
  LIBSVM
}
