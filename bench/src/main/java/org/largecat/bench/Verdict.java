package org.largecat.bench;

/**
 * What one benchmark's result shows against its baseline, as {@code largecat bench compare} reports
 * it.
 */
public enum Verdict {
  SLOWER("SLOWER", true),
  BACKENDS_CHANGED("BACKENDS CHANGED", true),
  FASTER("faster", false),
  WITHIN_ERROR("ok (beyond R, within error)", false),
  SAME("ok", false);

  /** How the comparison table prints it. */
  public final String text;

  /** Whether it fails the comparison. */
  public final boolean fails;

  Verdict(String text, boolean fails) {
    this.text = text;
    this.fails = fails;
  }

  /**
   * The verdict on {@code current} against {@code baseline}: a change of backends, or a time ratio
   * beyond {@code threshold} (or below its inverse) that the two JMH errors combined do not
   * explain.
   */
  public static Verdict of(JmhResult baseline, JmhResult current, double threshold) {
    if (baseline.backends() != null
        && current.backends() != null
        && !baseline.backends().equals(current.backends())) {
      return BACKENDS_CHANGED;
    }
    double b = baseline.secondsPerOp();
    double c = current.secondsPerOp();
    double ratio = c / b;
    boolean beyondError =
        Math.abs(c - b) > Math.hypot(baseline.secondsPerOpError(), current.secondsPerOpError());
    if (ratio > threshold) {
      return beyondError ? SLOWER : WITHIN_ERROR;
    }
    if (ratio < 1 / threshold) {
      return beyondError ? FASTER : WITHIN_ERROR;
    }
    return SAME;
  }
}
