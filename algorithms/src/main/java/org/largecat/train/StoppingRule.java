package org.largecat.train;

/**
 * When a run stops without being told how long to run. Once the training objective, averaged over
 * an epoch, has failed to beat its best so far by {@code tolerance} relative for {@code patience}
 * epochs in a row, the run is on a plateau (against the best, not the epoch before, so that noise
 * going up and down is no progress). On the first plateau, and on each later one whose best is at
 * least {@code tolerance} better than the best at the plateau before, the step size is divided by
 * {@value #STEP_DIVISOR} (as scikit-learn's SGD does with {@code learning_rate = "adaptive"}), up
 * to {@code stepReductions} times: a plateau of a stochastic method is often the noise floor of its
 * step, not the optimum. Otherwise the run has converged. It also stops at {@code maxEpochs} epochs
 * or {@code maxSeconds}, whichever comes first. A per-epoch average, since one iteration's estimate
 * of a stochastic bound is too noisy to compare.
 *
 * @param tolerance the relative improvement on the best so far below which an epoch counts as no
 *     progress
 * @param patience epochs without progress in a row that make a plateau
 * @param maxEpochs the most epochs run
 * @param maxSeconds the most wall-clock seconds, checked at the end of each epoch (may be infinite)
 * @param stepReductions the most times the step is divided on a plateau (0: a plateau ends the run)
 */
public record StoppingRule(
    double tolerance, int patience, int maxEpochs, double maxSeconds, int stepReductions) {

  /** What a plateau divides the step size by. */
  public static final double STEP_DIVISOR = 5;

  /** The default: 1e-4 relative for 3 epochs, at most 100 epochs, no time limit, 4 reductions. */
  public static final StoppingRule DEFAULT =
      new StoppingRule(1e-4, 3, 100, Double.POSITIVE_INFINITY, 4);

  /**
   * The default for a method whose model is the average of its iterates (umax, isgd, isgd-batch):
   * 1e-5 relative, at most 1,000 epochs, else as {@link #DEFAULT}. After e epochs the average moves
   * only about 3/(e + 2) of the way to the epoch's mean iterate, so an epoch's gain understates the
   * distance left by a factor that grows with e. On the 6000 × 25 × 60 ridge problem of the
   * averaged-iterates test, 1e-4 stopped isgd 1.0% above the optimal objective and 1e-5 0.34% above
   * it, after 325 epochs of one pair per datapoint.
   */
  public static final StoppingRule AVERAGED =
      new StoppingRule(1e-5, 3, 1_000, Double.POSITIVE_INFINITY, 4);

  public StoppingRule {
    if (!(tolerance >= 0 && tolerance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("tolerance = " + tolerance + " must be finite and >= 0");
    }
    if (patience < 1 || maxEpochs < 1 || stepReductions < 0) {
      throw new IllegalArgumentException(
          "patience = "
              + patience
              + " and maxEpochs = "
              + maxEpochs
              + " must each be >= 1, stepReductions = "
              + stepReductions
              + " >= 0");
    }
    if (!(maxSeconds > 0)) {
      throw new IllegalArgumentException("maxSeconds = " + maxSeconds + " must be > 0");
    }
  }

  /** A rule whose first plateau ends the run (no step reductions). */
  public StoppingRule(double tolerance, int patience, int maxEpochs, double maxSeconds) {
    this(tolerance, patience, maxEpochs, maxSeconds, 0);
  }

  /** A new judge of one run's epochs under this rule. */
  public Watch watch() {
    return new Watch();
  }

  /** This rule with at most {@code epochs} epochs. */
  public StoppingRule withMaxEpochs(int epochs) {
    return new StoppingRule(tolerance, patience, epochs, maxSeconds, stepReductions);
  }

  /** This rule with at most {@code reductions} step divisions. */
  public StoppingRule withStepReductions(int reductions) {
    return new StoppingRule(tolerance, patience, maxEpochs, maxSeconds, reductions);
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
    private double best = Double.NaN;
    private double lastImprovement = Double.NaN;
    private int withoutProgress;
    private int reductions;
    private double bestAtLastReduction = Double.NaN;

    private Watch() {}

    /**
     * Takes the watched objective at the end of the next epoch and returns its relative improvement
     * on the best epoch before, NaN for the first epoch.
     */
    public double epoch(double watched) {
      lastImprovement = Double.isNaN(best) ? Double.NaN : improvement(best, watched);
      withoutProgress = lastImprovement < tolerance ? withoutProgress + 1 : 0;
      best = Double.isNaN(best) ? watched : Math.max(best, watched);
      return lastImprovement;
    }

    /** Whether the last {@code patience} epochs each failed to beat the best by the tolerance. */
    public boolean converged() {
      return withoutProgress >= patience;
    }

    /**
     * On a plateau, whether dividing the step may still pay: a reduction is left, and this is the
     * first plateau or the best has gained at least the tolerance since the last reduction. When it
     * does, counts the reduction and starts looking for the next plateau.
     */
    public boolean reduceStep() {
      boolean pays =
          reductions < stepReductions
              && (reductions == 0 || improvement(bestAtLastReduction, best) >= tolerance);
      if (pays) {
        reductions++;
        bestAtLastReduction = best;
        withoutProgress = 0;
      }
      return pays;
    }

    /** The step reductions so far. */
    public int reductions() {
      return reductions;
    }

    /** The improvement of the last epoch, NaN before the second. */
    public double lastImprovement() {
      return lastImprovement;
    }
  }
}
