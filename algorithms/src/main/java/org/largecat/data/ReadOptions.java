package org.largecat.data;

import java.util.Objects;

/**
 * How {@link DatasetReader} reads a file.
 *
 * @param format the text format
 * @param featureBase the index the file gives its first feature (0 or 1)
 * @param labelBase the number the file gives its first class (0 or 1)
 * @param columns the number of features D, or -1 for the header's (Extreme Classification) or the
 *     largest index + 1 (LibSVM); a test file names its training set's D here
 * @param classes the number of classes K, or -1 as for {@code columns}
 */
public record ReadOptions(
    TextFormat format, int featureBase, int labelBase, int columns, int classes) {

  public ReadOptions {
    Objects.requireNonNull(format, "format");
    if (featureBase != 0 && featureBase != 1) {
      throw new IllegalArgumentException("featureBase = " + featureBase + " must be 0 or 1");
    }
    if (labelBase != 0 && labelBase != 1) {
      throw new IllegalArgumentException("labelBase = " + labelBase + " must be 0 or 1");
    }
    if (columns < -1 || classes < -1 || classes == 0) {
      throw new IllegalArgumentException(
          "columns = "
              + columns
              + ", classes = "
              + classes
              + ": each must be -1 (from the file) or a size (classes >= 1)");
    }
  }

  /**
   * The format's usual conventions: 0-based features for Extreme Classification, 1-based for
   * LibSVM; 0-based labels.
   */
  public static ReadOptions of(TextFormat format) {
    return new ReadOptions(format, format == TextFormat.LIBSVM ? 1 : 0, 0, -1, -1);
  }

  /** The same options with D and K fixed, e.g. to a training set's. */
  public ReadOptions withShape(int columns, int classes) {
    return new ReadOptions(format, featureBase, labelBase, columns, classes);
  }

  /** The same options with other index bases. */
  public ReadOptions withBases(int featureBase, int labelBase) {
    return new ReadOptions(format, featureBase, labelBase, columns, classes);
  }
}
