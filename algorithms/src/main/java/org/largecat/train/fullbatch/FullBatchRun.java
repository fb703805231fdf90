package org.largecat.train.fullbatch;

import org.largecat.train.TrainingRun;

/**
 * How a {@link FullBatchSoftmax} run went.
 *
 * @param iterations L-BFGS iterations
 * @param passes passes over the training set: every evaluation of the objective, line-search trials
 *     and the final scoring of the float model included
 * @param seconds wall-clock time
 * @param objective the objective of the model as saved, its weights rounded to float: the mean
 *     log-likelihood plus the log-prior over N (without its constant), to maximise
 * @param gradientNorm ‖∇‖∞ of the objective at the last double iterate
 * @param relativeChange the last iteration's relative change of the objective, NaN before the first
 * @param stoppedBecause why it stopped: {@code CONVERGED}, {@code MAX_EPOCHS} (the most iterations
 *     or passes), {@code MAX_SECONDS}, or {@code NO_PROGRESS}
 * @param outcome the minimiser's own reason, finer than {@code stoppedBecause}
 */
public record FullBatchRun(
    int iterations,
    int passes,
    double seconds,
    double objective,
    double gradientNorm,
    double relativeChange,
    TrainingRun.Stop stoppedBecause,
    LbfgsResult.Outcome outcome) {

  /** Whether the stopping test was met. */
  public boolean converged() {
    return stoppedBecause == TrainingRun.Stop.CONVERGED;
  }
}
