package org.largecat.fit;

import java.util.List;
import org.largecat.model.ScoreModel;
import org.largecat.train.Method;
import org.largecat.train.TrainingRun;

/**
 * What a {@link Fitter#fit} returned: the model and how the run went.
 *
 * @param model the fitted model
 * @param method the method that ran (the one chosen, when the fitter chose)
 * @param batch examples per iteration |B| (the full-batch solver: all N)
 * @param sampled classes sampled per example |S| (the full-batch solver: K − 1)
 * @param threads worker threads
 * @param iterations iterations run
 * @param epochs passes over the training rows, whole or not
 * @param stoppedBecause why the run ended
 * @param seconds wall-clock seconds of the run
 * @param secondsPerEpoch seconds per pass
 * @param bound the objective the trainer reports: the sampled and double-sum trainers' bound on the
 *     whole training set, averaged over the last epoch (a sum over the rows); the full-batch
 *     solver's objective per example
 * @param watched what the stopping rule watched, or null for a run of fixed length
 * @param watchedLogLikelihood the last mean log-likelihood of the watched rows, or null when the
 *     rule watched no rows
 * @param watchedRows how many rows the rule watched, or null
 * @param history one entry per epoch under the stopping rule (per iteration of the full-batch
 *     solver); empty for a run of fixed length
 */
public record Fit(
    ScoreModel model,
    Method method,
    int batch,
    int sampled,
    int threads,
    int iterations,
    double epochs,
    TrainingRun.Stop stoppedBecause,
    double seconds,
    double secondsPerEpoch,
    double bound,
    Watched watched,
    Double watchedLogLikelihood,
    Integer watchedRows,
    List<Epoch> history) {

  public Fit {
    history = List.copyOf(history);
  }

  /**
   * One epoch's progress.
   *
   * @param epoch its number from 1 (the full-batch solver: the iteration)
   * @param watched what the value is
   * @param value the value watched, to maximise
   * @param improvement its change relative to the best before (the full-batch solver: to the
   *     iteration before), NaN for the first
   * @param seconds since the run started
   */
  public record Epoch(
      int epoch, Watched watched, double value, double improvement, double seconds) {}

  /** The model as a thread-safe {@link Classifier}. */
  public Classifier classifier() {
    return Classifier.of(model);
  }

  /** Whether the run converged: false when a limit stopped it first, null for a fixed length. */
  public Boolean converged() {
    return stoppedBecause == TrainingRun.Stop.ITERATIONS
        ? null
        : stoppedBecause == TrainingRun.Stop.CONVERGED;
  }
}
