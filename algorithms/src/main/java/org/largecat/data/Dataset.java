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
