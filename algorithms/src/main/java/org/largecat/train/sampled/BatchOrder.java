package org.largecat.train.sampled;

import java.util.SplittableRandom;

/**
 * The mini-batches of the sampled trainers: each epoch a permutation of the rows drawn from the
 * seed and the epoch number, cut in order into batches; the last of an epoch may be smaller, so a
 * batch never holds an example twice.
 */
final class BatchOrder {
  private final long seed;
  private final int[] order;
  private int position;
  private long epoch;

  /** The current batch's examples are examples[0, size). */
  final int[] examples;

  int size;

  BatchOrder(int rows, int batch, long seed) {
    this.seed = seed;
    this.order = new int[rows];
    this.examples = new int[Math.min(batch, rows)];
    newEpoch();
  }

  /** Epochs begun so far, the current one included. */
  long epoch() {
    return epoch;
  }

  /** Moves to the next batch, beginning a new epoch when the current one is used up. */
  void next() {
    if (position == order.length) {
      newEpoch();
    }
    size = Math.min(examples.length, order.length - position);
    System.arraycopy(order, position, examples, 0, size);
    position += size;
  }

  private void newEpoch() {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + epoch++);
    for (int i = 0; i < order.length; i++) {
      int j = random.nextInt(i + 1);
      order[i] = order[j];
      order[j] = i;
    }
    position = 0;
  }
}
