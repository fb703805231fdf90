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
 * @param bound the objective the trainer reports, per training example: the sampled and double-sum
 *     trainers' estimate of their lower bound on the log-likelihood, averaged over the last epoch
 *     (loose: at many classes it can be orders of magnitude below the exact value, which {@code
 *     watchedLogLikelihood} gives); the full-batch solver's objective
 * @param watched what the stopping rule watched, or null for a run of fixed length
 * @param watchedLogLikelihood the last mean log-likelihood of the watched rows (less the ridge term
 *     when {@code watched} is {@link Watched#TRAINING_OBJECTIVE}), or null when the rule watched no
 *     rows
 * @param watchedRows how many rows the rule watched, or null
 * @param history one entry per epoch under the stopping rule (per iteration of the full-batch
 *     solver); empty for a run of fixed length
 * @param prior the prior variance of the model and how it was set
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
    List<Epoch> history,
    Prior prior) {

  public Fit {
    history = List.copyOf(history);
  }

  /**
   * The N(0, variance) prior on the weights and biases the model was fitted under.
   *
   * @param variance the prior variance, 0 for maximum likelihood
   * @param reason why this one: given, or chosen on the held-out rows, or the method's default
   * @param path the variances tried on the held-out rows, in order; empty when none was chosen
   */
  public record Prior(double variance, String reason, List<Trial> path) {
    public Prior {
      path = List.copyOf(path);
    }

    /** A prior given by the caller, or the method's default, with no path tried. */
    static Prior fixed(double variance, String reason) {
      return new Prior(variance, reason, List.of());
    }
  }

  /**
   * One prior variance tried on the held-out rows.
   *
   * @param variance the prior variance
   * @param heldOutLogLikelihood the mean log-likelihood of the held-out rows under its fit
   * @param iterations the solver's iterations for it
   * @param seconds wall-clock seconds since the path started
   */
  public record Trial(
      double variance, double heldOutLogLikelihood, int iterations, double seconds) {}

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
