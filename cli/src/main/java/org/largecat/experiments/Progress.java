package org.largecat.experiments;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.largecat.train.TrainingRun;

/**
 * Progress of one long step of an experiment. On a terminal it is a progress bar
 * (me.tongfei:progressbar) with the latest figure beside it; elsewhere (a log, a test) a plain line
 * every {@value #PRINT_SECONDS} s and at the end, so logs stay readable. For a training run it also
 * keeps the (seconds, epoch-mean bound) point of every epoch, or of every report of a run shorter
 * than an epoch, for plotting.
 */
public final class Progress implements TrainingRun.Progress {
  /** How often {@link TrainingRun} reports within a run shorter than an epoch. */
  static final double REPORT_SECONDS = 0.1;

  private static final double PRINT_SECONDS = 30;

  private final PrintStream err;
  private final String what;
  private final boolean terminal;
  private final long start = System.nanoTime();
  private final List<double[]> trace = new ArrayList<>();
  private ProgressBar bar;
  private double printed = Double.NEGATIVE_INFINITY;

  public Progress(PrintStream err, String what) {
    this.err = err;
    this.what = what;
    this.terminal = err == System.err && System.console() != null && System.console().isTerminal();
  }

  @Override
  public void report(int iteration, int iterations, double epochBound, double seconds) {
    trace.add(new double[] {seconds, epochBound});
    step(iteration, iterations, String.format("bound %.4g", epochBound));
  }

  /** Epoch {@code epoch} of at most {@code epochs} ended {@code seconds} into the run. */
  void epoch(int epoch, int epochs, double epochBound, double seconds) {
    trace.add(new double[] {seconds, epochBound});
    step(epoch, epochs, String.format("bound %.4g", epochBound));
  }

  /** {@code done} of {@code total} units of work are done; {@code figure} says how it is going. */
  public void step(long done, long total, String figure) {
    if (terminal) {
      if (bar == null) {
        bar =
            new ProgressBarBuilder()
                .setTaskName(what)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setConsumer(new ConsoleProgressBarConsumer(err))
                .setUpdateIntervalMillis(250)
                .build();
      }
      bar.maxHint(total);
      bar.stepTo(done);
      bar.setExtraMessage(figure);
      if (done >= total) {
        bar.close();
        bar = null;
      }
      return;
    }
    double seconds = (System.nanoTime() - start) * 1e-9;
    if (seconds - printed >= PRINT_SECONDS || done >= total) {
      err.printf("  %s: %d/%d, %s, %.0f s%n", what, done, total, figure, seconds);
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
