package org.largecat.experiments;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.largecat.train.Sampling;
import org.largecat.train.StoppingRule;

/**
 * What every {@code largecat reproduce} experiment takes from the command line.
 *
 * @param quick the short version: minutes, not hours
 * @param threads worker threads for training and evaluation
 * @param out where the tables (CSV, JSON) and figures (PNG, SVG) go
 * @param data where {@code largecat data prepare NAME --out DATA/NAME} put the real sets
 * @param sampling per-example or shared class samples, for the experiments that train sampled
 *     bounds
 * @param iterations an iteration count that overrides the experiment's own, where it has one
 * @param err progress and the paths written
 */
public record ExperimentSettings(
    boolean quick,
    int threads,
    Path out,
    Path data,
    Sampling sampling,
    OptionalInt iterations,
    PrintStream err) {

  /** The overriding iteration count, else {@code full}, or {@code quick} in the short version. */
  public int iterations(int full, int quickCount) {
    return iterations.orElse(this.quick ? quickCount : full);
  }

  /**
   * The stopping rule of every experiment's training runs: {@code largecat train}'s default
   * tolerance and patience, at most {@code maxEpochs} (the experiment's budget, so a run is never
   * longer than the paper's), no time limit, and no step divisions: the experiments run the papers'
   * decaying schedules.
   */
  static StoppingRule stoppingRule(int maxEpochs) {
    return StoppingRule.DEFAULT.withMaxEpochs(maxEpochs).withStepReductions(0);
  }
}
