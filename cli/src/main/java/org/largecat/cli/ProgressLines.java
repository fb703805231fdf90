package org.largecat.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.largecat.fit.Fit;
import org.largecat.fit.FitListener;
import org.largecat.fit.Watched;
import org.largecat.train.StoppingRule;

/**
 * A {@link org.largecat.fit.Fitter}'s progress as lines on standard error, each after the command's
 * name.
 */
record ProgressLines(String command, PrintStream err) implements FitListener {
  @Override
  public void note(String message) {
    err.println(command + ": " + message);
  }

  @Override
  public void epoch(Fit.Epoch epoch) {
    err.printf(
        Locale.ROOT,
        "%s: %s %d, %s %s (%s), %.1f s%n",
        command,
        epoch.watched() == Watched.OBJECTIVE ? "iteration" : "epoch",
        epoch.epoch(),
        epoch.watched().description(),
        // The solver's changes near its optimum show only in the later digits.
        String.format(
            Locale.ROOT, epoch.watched() == Watched.OBJECTIVE ? "%.12g" : "%.6g", epoch.value()),
        Double.isNaN(epoch.improvement())
            ? "first"
            : String.format(
                Locale.ROOT,
                epoch.watched() == Watched.OBJECTIVE ? "%+.2e relative" : "%+.2e on the best",
                epoch.improvement()),
        epoch.seconds());
  }

  @Override
  public void stepReduced(int epoch, int reductions, int most) {
    err.printf(
        Locale.ROOT,
        "%s: a plateau after epoch %d: step size divided by %.0f (%d of %d)%n",
        command,
        epoch,
        StoppingRule.STEP_DIVISOR,
        reductions,
        most);
  }

  @Override
  public void iteration(int iteration, int iterations, double epochBound, double seconds) {
    err.printf(
        Locale.ROOT,
        "%s: iteration %d/%d, bound %.6g, %.1f it/s%n",
        command,
        iteration,
        iterations,
        epochBound,
        iteration / seconds);
  }
}
