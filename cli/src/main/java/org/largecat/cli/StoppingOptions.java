package org.largecat.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.largecat.train.StoppingRule;
import org.largecat.train.TrainingRun;
import picocli.CommandLine.Option;

/**
 * The stopping rule's options, shared by {@code train} and {@code spark train}: the rule they make,
 * its progress lines and why a run stopped before converging.
 */
final class StoppingOptions {
  /**
   * What the rule watches after each epoch: named so on the progress lines, and in {@code --json}'s
   * {@code watched} by its lower-case name.
   */
  enum Watched {
    /**
     * The epoch's mean bound, reported as {@code train_bound}; the full-batch solver's objective.
     */
    TRAIN_BOUND("bound"),
    /**
     * The exact mean log-likelihood of a fixed sample of training rows ({@code
     * WatchedTrainingRows}).
     */
    TRAINING_ROWS("training rows' log-likelihood"),
    /** The mean log-likelihood of the rows {@code --validation-fraction} holds out. */
    HELD_OUT_ROWS("held-out log-likelihood");

    private final String progressName;

    Watched(String progressName) {
      this.progressName = progressName;
    }

    String json() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  @Option(
      names = "--tol",
      paramLabel = "X",
      converter = OptionTypes.NonNegativeNumber.class,
      defaultValue = "1e-4",
      description =
          "Without --epochs or --iterations: an epoch whose watched value improves by less than"
              + " X relative counts as no progress (default: ${DEFAULT-VALUE}); the value is the"
              + " log-likelihood of the --validation-fraction rows when given, else of a sample of"
              + " training rows for ar-softmax, ove, is, nce and exact-softmax-sgd, else the"
              + " epoch's mean bound."
              + " exact-softmax stops once an iteration changes the objective by at most X relative"
              + " (default: 1e-10).")
  double tolerance;

  @Option(
      names = "--patience",
      paramLabel = "N",
      converter = OptionTypes.Count.class,
      defaultValue = "3",
      description =
          "Epochs without progress in a row that end training (default: ${DEFAULT-VALUE}).")
  int patience;

  @Option(
      names = "--max-epochs",
      paramLabel = "N",
      converter = OptionTypes.Count.class,
      defaultValue = "100",
      description =
          "The most epochs the stopping rule runs (default: ${DEFAULT-VALUE}); exact-softmax: the"
              + " most passes over the data, line-search trials included (default: 20000).")
  int maxEpochs;

  @Option(
      names = "--step-reductions",
      paramLabel = "N",
      converter = OptionTypes.NonNegativeInteger.class,
      defaultValue = "4",
      description =
          "On a plateau the stopping rule divides the step size by 5, at most N times, before it"
              + " calls the run converged (default: ${DEFAULT-VALUE}).")
  int stepReductions;

  @Option(
      names = "--max-seconds",
      paramLabel = "S",
      converter = OptionTypes.PositiveNumber.class,
      description =
          "The most seconds the stopping rule runs, checked after each epoch (exact-softmax: each"
              + " iteration) (default: none).")
  Double maxSeconds;

  StoppingRule rule() {
    return new StoppingRule(
        tolerance,
        patience,
        maxEpochs,
        maxSeconds == null ? Double.POSITIVE_INFINITY : maxSeconds,
        stepReductions);
  }

  /** Prints each epoch's {@code watched} value and each step reduction on {@code err}. */
  TrainingRun.EpochProgress progress(String command, Watched watched, PrintStream err) {
    return new TrainingRun.EpochProgress() {
      @Override
      public void epoch(int epoch, double value, double improvement, double seconds) {
        err.printf(
            Locale.ROOT,
            "%s: epoch %d, %s %.6g (%s), %.1f s%n",
            command,
            epoch,
            watched.progressName,
            value,
            Double.isNaN(improvement)
                ? "first epoch"
                : String.format(Locale.ROOT, "%+.2e on the best", improvement),
            seconds);
      }

      @Override
      public void stepReduced(int epoch, int reductions) {
        err.printf(
            "%s: a plateau after epoch %d: step size divided by %.0f (%d of %d)%n",
            command, epoch, StoppingRule.STEP_DIVISOR, reductions, stepReductions);
      }
    };
  }

  /** Says on {@code err} which limit stopped {@code run} before it converged, if one did. */
  void reportUnconverged(String command, TrainingRun run, PrintStream err) {
    if (run.converged() != Boolean.FALSE) {
      return;
    }
    boolean epochs = run.stoppedBecause() == TrainingRun.Stop.MAX_EPOCHS;
    err.printf(
        Locale.ROOT,
        "%s: stopped at %s before converging: the last epoch changed the objective by %.2e"
            + " relative, and the rule wants %d epochs in a row below --tol %.3g; give a larger"
            + " %s or --tol%n",
        command,
        epochs ? "--max-epochs " + maxEpochs : "--max-seconds " + maxSeconds,
        run.lastImprovement(),
        patience,
        tolerance,
        epochs ? "--max-epochs" : "--max-seconds");
  }
}
