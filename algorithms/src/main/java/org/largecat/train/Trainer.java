package org.largecat.train;

/** An iterative trainer that updates its model in place, one mini-batch per {@link #step}. */
public interface Trainer extends AutoCloseable {

  /**
   * Runs one iteration and returns its estimate of the training objective on the whole training
   * set.
   */
  double step();

  /** Iterations that make one pass over the training set. */
  int iterationsPerEpoch();

  /** Releases the trainer's threads. */
  @Override
  void close();
}
