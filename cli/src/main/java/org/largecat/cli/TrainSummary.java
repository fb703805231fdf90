package org.largecat.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.largecat.eval.Evaluation;
import org.largecat.fit.Fit;
import org.largecat.fit.Watched;
import org.largecat.train.TrainingRun;

/** The lines {@code train} and {@code spark train} print about a fit without {@code --json}. */
final class TrainSummary {
  private TrainSummary() {}

  /**
   * How the run went (why it stopped, unless it ran a fixed length), what it watched (or its
   * bound), the prior when one was used or chosen, and the test scores when there are any; {@code
   * steps} names the run's iterations.
   */
  static void print(Fit fit, String steps, Evaluation.Result scores, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%s: %d %s (%.3g epochs%s) in %.2f s (%.3g s per epoch); %s%n",
        fit.method().label(),
        fit.iterations(),
        steps,
        fit.epochs(),
        fit.stoppedBecause() == TrainingRun.Stop.ITERATIONS
            ? ""
            : ", " + fit.stoppedBecause().name().toLowerCase(Locale.ROOT).replace('_', ' '),
        fit.seconds(),
        fit.secondsPerEpoch(),
        fit.watchedLogLikelihood() != null
            ? String.format(
                Locale.ROOT,
                "%s %.6g per example on the %d %s rows",
                fit.watched() == Watched.TRAINING_OBJECTIVE
                    ? "objective (log-likelihood less the ridge term)"
                    : "log-likelihood",
                fit.watchedLogLikelihood(),
                fit.watchedRows(),
                fit.watched() == Watched.HELD_OUT_ROWS ? "held-out" : "watched training")
            : String.format(
                Locale.ROOT,
                fit.method().isFullBatch()
                    ? "objective %.6g per example"
                    : "bound %.6g per example over the last epoch",
                fit.bound()));
    if (fit.prior().variance() != 0 || !fit.prior().path().isEmpty()) {
      out.printf(
          Locale.ROOT, "prior variance %.3g: %s%n", fit.prior().variance(), fit.prior().reason());
    }
    if (scores != null) {
      out.printf(
          Locale.ROOT,
          "test: log-likelihood %.6f per example, accuracy %.4f, top-5 %.4f (%d examples)%n",
          scores.meanLogLikelihood(),
          scores.accuracy(),
          scores.topKAccuracy(),
          scores.examples());
    }
  }
}
