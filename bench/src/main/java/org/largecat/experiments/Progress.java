package org.largecat.experiments;

import java.io.PrintStream;
import org.largecat.train.TrainingRun;

/** Progress lines of long experiment steps on standard error. */
final class Progress {
  private Progress() {}

  static TrainingRun.Progress of(PrintStream err, String what) {
    return (t, total, bound, seconds) -> err.printf("  %s: iteration %d/%d, bound %.4g, %.0f s%n", what, t, total, bound, seconds);
  }
}
