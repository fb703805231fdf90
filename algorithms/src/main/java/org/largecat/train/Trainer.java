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

  /**
   * Multiplies every step size from the next iteration on by {@code factor} (a {@link
   * StoppingRule}'s reduction on a plateau), on top of the schedule.
   */
  void scaleStepSize(double factor);

  /** Releases the trainer's threads. */
  @Override
  void close();
}
