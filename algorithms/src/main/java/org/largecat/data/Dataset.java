package org.largecat.data;

import java.util.Objects;

/** Labelled examples: feature rows and one class label in [0, classes) per row. */
public record Dataset(Features features, int[] labels, int classes) {

  public Dataset {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(labels, "labels");
    if (labels.length != features.rows()) {
      throw new IllegalArgumentException(
          labels.length + " labels for " + features.rows() + " feature rows");
    }
    if (classes < 1) {
      throw new IllegalArgumentException("classes = " + classes + " must be >= 1");
    }
    for (int n = 0; n < labels.length; n++) {
      if (labels[n] < 0 || labels[n] >= classes) {
        throw new IllegalArgumentException(
            "labels[" + n + "] = " + labels[n] + " is outside [0, " + classes + ")");
      }
    }
  }

  /**
   * The examples of {@code x}, one row of D features each, labelled {@code y} in [0, {@code
   * classes}): the rows are copied into one row-major block, so the caller may reuse them.
   *
   * @throws IllegalArgumentException when the rows differ in length, x and y differ in length, a
   *     label is outside [0, classes), or a feature is NaN or infinite; the message names the row
   */
  public static Dataset dense(float[][] x, int[] y, int classes) {
    Objects.requireNonNull(x, "x");
    Objects.requireNonNull(y, "y");
    if (x.length != y.length) {
      throw new IllegalArgumentException(
          x.length + " feature rows but " + y.length + " labels: give one label per row");
    }
    int columns = x.length == 0 || x[0] == null ? 0 : x[0].length;
    float[] values = new float[Math.multiplyExact(x.length, columns)];
    for (int n = 0; n < x.length; n++) {
      float[] row = x[n];
      if (row == null) {
        throw new IllegalArgumentException("x[" + n + "] is null: every row needs D features");
      }
      if (row.length != columns) {
        throw new IllegalArgumentException(
            "x["
                + n
                + "] has "
                + row.length
                + " features where x[0] has "
                + columns
                + ": every row needs the same D");
      }
      requireFinite(row, 0, columns, n);
      System.arraycopy(row, 0, values, n * columns, columns);
    }
    return new Dataset(new DenseFeatures(x.length, columns, values), y.clone(), classes);
  }

  /**
   * The examples of a CSR matrix of {@code columns} features: row n stores {@code
   * values[indptr[n]..indptr[n+1])} at the strictly increasing column indices {@code indices} of
   * the same range; labels {@code y} in [0, {@code classes}). The arrays are copied.
   *
   * @throws IllegalArgumentException when the arrays disagree, an index is outside [0, columns) or
   *     not increasing within its row, a label is outside [0, classes), or a value is NaN or
   *     infinite
   */
  public static Dataset sparse(
      int[] indptr, int[] indices, float[] values, int columns, int[] y, int classes) {
    Objects.requireNonNull(indptr, "indptr");
    Objects.requireNonNull(y, "y");
    if (indptr.length != y.length + 1) {
      throw new IllegalArgumentException(
          "indptr has "
              + indptr.length
              + " entries for "
              + y.length
              + " labels: it needs one more than the rows");
    }
    SparseFeatures features =
        new SparseFeatures(y.length, columns, indptr.clone(), indices.clone(), values.clone());
    for (int n = 0; n < y.length; n++) {
      requireFinite(features.values(), indptr[n], indptr[n + 1], n);
    }
    return new Dataset(features, y.clone(), classes);
  }

  private static void requireFinite(float[] values, int from, int to, int row) {
    for (int i = from; i < to; i++) {
      if (!Float.isFinite(values[i])) {
        throw new IllegalArgumentException(
            "row "
                + row
                + " holds the feature value "
                + values[i]
                + ": every value must be finite");
      }
    }
  }

  /** Number of examples N. */
  public int rows() {
    return labels.length;
  }

  /** Number of features D. */
  public int columns() {
    return features.columns();
  }

  /** Returns how many examples carry each label. */
  public int[] classCounts() {
    int[] counts = new int[classes];
    for (int y : labels) {
      counts[y]++;
    }
    return counts;
  }

  /** Returns the examples listed, in that order. */
  public Dataset subset(int[] rowIndices) {
    int[] picked = new int[rowIndices.length];
    for (int i = 0; i < rowIndices.length; i++) {
      picked[i] = labels[Objects.checkIndex(rowIndices[i], labels.length)];
    }
    return new Dataset(features.subset(rowIndices), picked, classes);
  }
}
