package org.largecat.experiments;

import java.util.Locale;
import org.largecat.train.StoppingRule;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingRun;

/**
 * How one training run of an experiment ended, as the result tables give it per run. A run under
 * the experiments' stopping rule ({@link #underRule}) converged exactly when the rule stopped it. A
 * run kept to a paper's protocol (a fixed number of epochs, or a time budget) so that its curve
 * compares with the others' ({@link #judged}) says whether the rule would have called its last
 * epochs converged.
 *
 * @param epochs whole passes over the training set
 * @param stoppedBecause converged, max_epochs or max_seconds; fixed_epochs for a run of a paper's
 *     fixed length; diverged when its objective overflowed
 * @param converged whether the rule saw (or would have seen) the run converge by its end
 */
record RunEnd(int epochs, String stoppedBecause, boolean converged) {

  /** A run under the rule, and how it ended. */
  record Ruled(TrainingRun run, RunEnd end) {}

  /**
   * Trains under {@link ExperimentSettings#stoppingRule} for at most the whole epochs that fit in
   * {@code budget} iterations, telling {@code progress} after each epoch. The rule judges whole
   * epochs, so a budget short of one (exact softmax on kjv-nextword) is run as it is: 0 epochs,
   * stopped at its cap.
   *
   * @throws org.largecat.train.TrainingDivergedException when the objective overflows
   */
  static Ruled underRule(Trainer trainer, int budget, Progress progress) {
    int perEpoch = trainer.iterationsPerEpoch();
    if (budget < perEpoch) {
      TrainingRun run = TrainingRun.run(trainer, budget, Progress.REPORT_SECONDS, progress);
      return new Ruled(run, stopped(0, TrainingRun.Stop.MAX_EPOCHS));
    }
    StoppingRule rule = ExperimentSettings.stoppingRule(budget / perEpoch);
    TrainingRun run =
        TrainingRun.until(
            trainer,
            rule,
            (epoch, bound, improvement, seconds) ->
                progress.epoch(epoch, rule.maxEpochs(), bound, seconds));
    int epochs = (int) run.epochs(perEpoch);
    RunEnd end = stopped(epochs, run.stoppedBecause());
    if (epochs < rule.maxEpochs()) {
      progress.step(epochs, epochs, end.stoppedBecause()); // ends the progress bar where it stopped
    }
    return new Ruled(run, end);
  }

  /**
   * A run that ended at {@code stop}: by the rule, at a cap, or by its own tolerance as IB-CAVI
   * does; converged when {@code stop} is.
   */
  static RunEnd stopped(int epochs, TrainingRun.Stop stop) {
    return new RunEnd(epochs, label(stop), stop == TrainingRun.Stop.CONVERGED);
  }

  /**
   * A judge, for a run kept to a paper's protocol, of its epochs under the experiments' rule (a
   * watch ignores the rule's caps).
   */
  static StoppingRule.Watch watch() {
    return ExperimentSettings.stoppingRule(Integer.MAX_VALUE).watch();
  }

  /**
   * A run kept to a paper's protocol, which ended at {@code stop} ({@link
   * TrainingRun.Stop#ITERATIONS} for a fixed number of epochs), converged as {@code watch} judged
   * its last epochs.
   */
  static RunEnd judged(int epochs, TrainingRun.Stop stop, StoppingRule.Watch watch) {
    return new RunEnd(epochs, label(stop), watch.converged());
  }

  /** A run whose objective overflowed after {@code epochs} whole epochs. */
  static RunEnd diverged(int epochs) {
    return new RunEnd(epochs, "diverged", false);
  }

  private static String label(TrainingRun.Stop stop) {
    return stop == TrainingRun.Stop.ITERATIONS
        ? "fixed_epochs"
        : stop.name().toLowerCase(Locale.ROOT);
  }
}
