package org.largecat.train;

/**
 * When a run stops without being told how long to run: once the training objective, averaged over
 * an epoch, has improved by less than {@code tolerance} relative to the epoch before for {@code
 * patience} epochs in a row; or at {@code maxEpochs} epochs or {@code maxSeconds}, whichever comes
 * first. A per-epoch average, since one iteration's estimate of a stochastic bound is too noisy to
 * compare.
 *
 * @param tolerance the relative improvement per epoch below which an epoch counts as no progress
 * @param patience epochs without progress in a row that end the run
 * @param maxEpochs the most epochs run
 * @param maxSeconds the most wall-clock seconds, checked at the end of each epoch (may be infinite)
 */
public record StoppingRule(double tolerance, int patience, int maxEpochs, double maxSeconds) {

  /** The default: 1e-4 relative for 3 epochs, at most 100 epochs, no time limit. */
  public static final StoppingRule DEFAULT =
      new StoppingRule(1e-4, 3, 100, Double.POSITIVE_INFINITY);

  public StoppingRule {
    if (!(tolerance >= 0 && tolerance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("tolerance = " + tolerance + " must be finite and >= 0");
    }
    if (patience < 1 || maxEpochs < 1) {
      throw new IllegalArgumentException(
          "patience = " + patience + " and maxEpochs = " + maxEpochs + " must each be >= 1");
    }
    if (!(maxSeconds > 0)) {
      throw new IllegalArgumentException("maxSeconds = " + maxSeconds + " must be > 0");
    }
  }

  /** A new judge of one run's epochs under this rule. */
  public Watch watch() {
    return new Watch();
  }

  /**
   * The relative improvement of a maximised objective from {@code before} to {@code after}: {@code
   * (after − before) / |before|}, negative when it got worse.
   */
  static double improvement(double before, double after) {
    return (after - before) / Math.abs(before);
  }

  /**
   * Judges one run epoch by epoch as the rule does, whether or not the run stops when the rule says
   * so: a run of a fixed length can still be asked whether the rule would have called it converged.
   */
  public final class Watch {
    private double before = Double.NaN;
    private double lastImprovement = Double.NaN;
    private int withoutProgress;

    private Watch() {}

    /**
     * Takes the watched objective at the end of the next epoch and returns its relative improvement
     * over the epoch before, NaN for the first epoch.
     */
    public double epoch(double watched) {
      lastImprovement = Double.isNaN(before) ? Double.NaN : improvement(before, watched);
      withoutProgress = lastImprovement < tolerance ? withoutProgress + 1 : 0;
      before = watched;
      return lastImprovement;
    }

    /** Whether the last {@code patience} epochs each improved by less than the tolerance. */
    public boolean converged() {
      return withoutProgress >= patience;
    }

    /** The improvement of the last epoch, NaN before the second. */
    public double lastImprovement() {
      return lastImprovement;
    }
  }
}
