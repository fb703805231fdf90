package org.largecat.experiments;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.largecat.train.TrainingRun;

/**
 * Progress of a long experiment step: a line on standard error every {@value #PRINT_SECONDS} s, and
 * the (seconds, epoch-mean bound) points of every report, for plotting.
 */
final class Progress implements TrainingRun.Progress {
  /** How often {@link TrainingRun} reports, so the trace has enough points. */
  static final double REPORT_SECONDS = 0.25;
  private static final double PRINT_SECONDS = 30;

  private final PrintStream err;
  private final String what;
  private final List<double[]> trace = new ArrayList<>();
  private double printed = Double.NEGATIVE_INFINITY;

  Progress(PrintStream err, String what) {
    this.err = err;
    this.what = what;
  }

  @Override
  public void report(int iteration, int iterations, double epochBound, double seconds) {
    trace.add(new double[] {seconds, epochBound});
    if (seconds - printed >= PRINT_SECONDS || iteration == iterations) {
      err.printf("  %s: iteration %d/%d, bound %.4g, %.0f s%n", what, iteration, iterations, epochBound, seconds);
      printed = seconds;
    }
  }

  /** The trace as {x values, y values}. */
  double[][] trace() {
    double[][] xy = new double[2][trace.size()];
    for (int i = 0; i < trace.size(); i++) {
      xy[0][i] = trace.get(i)[0];
      xy[1][i] = trace.get(i)[1];
    }
    return xy;
  }
}
