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

  /**
   * The relative improvement of a maximised objective from {@code before} to {@code after}: {@code
   * (after − before) / |before|}, negative when it got worse.
   */
  static double improvement(double before, double after) {
    return (after - before) / Math.abs(before);
  }
}
