package org.largecat.train.sampled;

/**
 * The slots of a shared class set S by class, so that an example's label leaves S in O(1): the
 * slots it fills get weight 0 (log weight −∞) for its step and their shared weights back after it,
 * where {@link ClassSampler#excludeLabel} rewrites all |S| weights per example. A label can fill
 * several slots when S is drawn with replacement.
 */
final class SharedSlots {
  /** Per class: 1 + its first slot in S, 0 when it is not in S. */
  private final int[] first;

  /** Per slot: the next slot of the same class, or −1. */
  private final int[] next;

  /** The classes indexed, to clear them when the next set is indexed. */
  private final int[] indexed;

  SharedSlots(int classes, int sampled) {
    first = new int[classes];
    next = new int[sampled];
    indexed = new int[sampled];
  }

  /** Indexes the classes of rows[0, |S|), forgetting the previous set's. */
  void index(int[] rows) {
    for (int k : indexed) {
      first[k] = 0;
    }
    System.arraycopy(rows, 0, indexed, 0, indexed.length);
    for (int j = indexed.length - 1; j >= 0; j--) {
      int k = indexed[j];
      next[j] = first[k] - 1;
      first[k] = j + 1;
    }
  }

  /** Sets weight and logWeight of the label's slots to 0 and −∞. */
  void exclude(int label, double[] weight, double[] logWeight) {
    for (int j = first[label] - 1; j >= 0; j = next[j]) {
      weight[j] = 0;
      logWeight[j] = Double.NEGATIVE_INFINITY;
    }
  }

  /** Sets the label's slots of a row of scores, row[at + j], to −∞: terms of weight 0. */
  void exclude(int label, float[] row, int at) {
    for (int j = first[label] - 1; j >= 0; j = next[j]) {
      row[at + j] = Float.NEGATIVE_INFINITY;
    }
  }

  /** Copies the shared weights of the label's slots back into weight and logWeight. */
  void restore(
      int label, double[] shared, double[] sharedLog, double[] weight, double[] logWeight) {
    for (int j = first[label] - 1; j >= 0; j = next[j]) {
      weight[j] = shared[j];
      logWeight[j] = sharedLog[j];
    }
  }
}
