package org.largecat.fit;

/**
 * Told how a {@link Fitter#fit} goes; every method does nothing unless overridden. Called on the
 * fitting thread.
 */
public interface FitListener {
  /** A listener that ignores everything. */
  FitListener NONE = new FitListener() {};

  /** A choice the fitter made and why, or a setting it adjusted, as one sentence. */
  default void note(String message) {}

  /** The end of an epoch under the stopping rule (the full-batch solver: of an iteration). */
  default void epoch(Fit.Epoch epoch) {}

  /** The stopping rule divided the step size on a plateau, the {@code reductions}-th time. */
  default void stepReduced(int epoch, int reductions, int most) {}

  /** Progress of a run of fixed length, now and then and at its end. */
  default void iteration(int iteration, int iterations, double epochBound, double seconds) {}
}
