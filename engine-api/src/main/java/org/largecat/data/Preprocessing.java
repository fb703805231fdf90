package org.largecat.data;

import java.util.Arrays;

/** The A&R paper's preprocessing (§4.2), applied to a training set and its test set together. */
public final class Preprocessing {
  private Preprocessing() {}

  /** Returns the test examples whose class occurs in the training set, in their order. */
  public static Dataset dropUnseenClasses(Dataset train, Dataset test) {
    requireSameShape(train, test);
    int[] counts = train.classCounts();
    int[] kept = new int[test.rows()];
    int size = 0;
    for (int n = 0; n < test.rows(); n++) {
      if (counts[test.labels()[n]] > 0) {
        kept[size++] = n;
      }
    }
    return size == test.rows() ? test : test.subset(Arrays.copyOf(kept, size));
  }

  /**
   * Divides every feature of both sets by its largest absolute value in the training set, so the
   * training features lie in [-1, 1]; features that are 0 throughout training are left as they are.
   */
  public static Dataset[] scaleByTrainingMaximum(Dataset train, Dataset test) {
    requireSameShape(train, test);
    float[] max = train.features().columnMaxAbs();
    return new Dataset[] {
        new Dataset(train.features().scaleColumns(max), train.labels(), train.classes()),
        new Dataset(test.features().scaleColumns(max), test.labels(), test.classes())};
  }

  private static void requireSameShape(Dataset train, Dataset test) {
    if (train.columns() != test.columns() || train.classes() != test.classes()) {
      throw new IllegalArgumentException("training set is D = " + train.columns() + ", K = " + train.classes()
          + " but test set is D = " + test.columns() + ", K = " + test.classes());
    }
  }
}
