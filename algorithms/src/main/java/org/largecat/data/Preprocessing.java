package org.largecat.data;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The papers' preprocessing: A&R §4.2 (applied to a training set and its test set together) and the
 * unit-norm rows of unbiased-scalable-softmax §4.1.
 */
public final class Preprocessing {
  private Preprocessing() {}

  /**
   * Splits {@code data} into the examples kept for training and a held-out slice of {@code
   * fraction} of them (at least one, and at least one left), drawn at random with {@code seed};
   * each part keeps the file's order.
   */
  public static Dataset[] holdOut(Dataset data, double fraction, long seed) {
    if (!(fraction > 0 && fraction < 1) || data.rows() < 2) {
      throw new IllegalArgumentException(
          "holding out a fraction "
              + fraction
              + " of "
              + data.rows()
              + " examples: the fraction must be in (0, 1) and there must be two examples or more");
    }
    int heldOut = (int) Math.min(data.rows() - 1, Math.max(1, Math.round(fraction * data.rows())));
    boolean[] held = drawn(data.rows(), heldOut, seed);
    int[] kept = new int[data.rows() - heldOut];
    int[] out = new int[heldOut];
    for (int n = 0, k = 0, h = 0; n < data.rows(); n++) {
      if (held[n]) {
        out[h++] = n;
      } else {
        kept[k++] = n;
      }
    }
    return new Dataset[] {data.subset(kept), data.subset(out)};
  }

  /**
   * Returns {@code count} examples of {@code data} drawn at random with {@code seed}, in the file's
   * order: the same ones as {@link #holdOut} holds out for that count; the whole set when it has no
   * more than {@code count}.
   */
  public static Dataset sample(Dataset data, int count, long seed) {
    if (count < 1) {
      throw new IllegalArgumentException("sampling " + count + " examples: need 1 or more");
    }
    if (data.rows() <= count) {
      return data;
    }
    boolean[] picked = drawn(data.rows(), count, seed);
    int[] rows = new int[count];
    for (int n = 0, k = 0; n < data.rows(); n++) {
      if (picked[n]) {
        rows[k++] = n;
      }
    }
    return data.subset(rows);
  }

  /** Which of {@code rows} examples are among {@code count} drawn without replacement. */
  private static boolean[] drawn(int rows, int count, long seed) {
    boolean[] picked = new boolean[rows];
    SplittableRandom random = new SplittableRandom(seed);
    for (int chosen = 0; chosen < count; ) {
      int n = random.nextInt(rows);
      if (!picked[n]) {
        picked[n] = true;
        chosen++;
      }
    }
    return picked;
  }

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
      new Dataset(test.features().scaleColumns(max), test.labels(), test.classes())
    };
  }

  /**
   * Every row divided by its L2 norm (unbiased-scalable-softmax §4.1: "the features of each dataset
   * were normalized to have unit L2 norm"); an all-zero row stays as it is.
   */
  public static Dataset unitRows(Dataset data) {
    Features x = data.features();
    Features scaled =
        switch (x) {
          case DenseFeatures dense -> {
            float[] values = dense.values().clone();
            int d = dense.columns();
            for (int n = 0; n < dense.rows(); n++) {
              divide(values, n * d, (n + 1) * d, Math.sqrt(dense.squaredNorm(n)));
            }
            yield new DenseFeatures(dense.rows(), d, values);
          }
          case SparseFeatures sparse -> {
            float[] values = sparse.values().clone();
            int[] indptr = sparse.indptr();
            for (int n = 0; n < sparse.rows(); n++) {
              divide(values, indptr[n], indptr[n + 1], Math.sqrt(sparse.squaredNorm(n)));
            }
            yield new SparseFeatures(
                sparse.rows(), sparse.columns(), indptr, sparse.indices(), values);
          }
        };
    return new Dataset(scaled, data.labels(), data.classes());
  }

  private static void divide(float[] values, int from, int to, double norm) {
    if (norm > 0) {
      for (int j = from; j < to; j++) {
        values[j] = (float) (values[j] / norm);
      }
    }
  }

  private static void requireSameShape(Dataset train, Dataset test) {
    if (train.columns() != test.columns() || train.classes() != test.classes()) {
      throw new IllegalArgumentException(
          "training set is D = "
              + train.columns()
              + ", K = "
              + train.classes()
              + " but test set is D = "
              + test.columns()
              + ", K = "
              + test.classes());
    }
  }
}
