package org.largecat.train;

/**
 * When {@link Lbfgs} stops, and how much curvature it keeps.
 *
 * @param history the (s, y) pairs kept, m
 * @param gradientTolerance converged once ‖∇f‖∞ ≤ this
 * @param relativeTolerance converged once an iteration lowers f by at most this relative: (f_{k−1}
 *     − f_k) / max(|f_k|, |f_{k−1}|, 1)
 * @param maxIterations the most iterations
 * @param maxEvaluations the most evaluations of f and ∇f (line-search trials included)
 * @param maxSeconds the most wall-clock seconds, checked after each iteration (may be infinite)
 */
public record LbfgsSettings(
    int history,
    double gradientTolerance,
    double relativeTolerance,
    int maxIterations,
    int maxEvaluations,
    double maxSeconds) {

  /**
   * m = 10 pairs; tolerances four orders below the 1e-6 relative error in f they are meant to
   * guarantee, since near the optimum an iteration of L-BFGS can gain far less than the distance
   * still to go (a hundredth of it at a linear rate of 0.99); ‖∇f‖∞ ≤ 1e-9 is rarely reached first.
   * The caps are for runs that would otherwise not end.
   */
  public static final LbfgsSettings DEFAULT =
      new LbfgsSettings(10, 1e-9, 1e-10, 10_000, 20_000, Double.POSITIVE_INFINITY);

  public LbfgsSettings {
    if (history < 1 || maxIterations < 1 || maxEvaluations < 1) {
      throw new IllegalArgumentException(
          "history = "
              + history
              + ", maxIterations = "
              + maxIterations
              + ", maxEvaluations = "
              + maxEvaluations
              + ": each must be >= 1");
    }
    if (!(gradientTolerance >= 0 && gradientTolerance < Double.POSITIVE_INFINITY)
        || !(relativeTolerance >= 0 && relativeTolerance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "gradientTolerance = "
              + gradientTolerance
              + " and relativeTolerance = "
              + relativeTolerance
              + " must be finite and >= 0");
    }
    if (!(maxSeconds > 0)) {
      throw new IllegalArgumentException("maxSeconds = " + maxSeconds + " must be > 0");
    }
  }

  public LbfgsSettings withHistory(int history) {
    return new LbfgsSettings(
        history, gradientTolerance, relativeTolerance, maxIterations, maxEvaluations, maxSeconds);
  }

  public LbfgsSettings withRelativeTolerance(double relativeTolerance) {
    return new LbfgsSettings(
        history, gradientTolerance, relativeTolerance, maxIterations, maxEvaluations, maxSeconds);
  }

  public LbfgsSettings withMaxEvaluations(int maxEvaluations) {
    return new LbfgsSettings(
        history, gradientTolerance, relativeTolerance, maxIterations, maxEvaluations, maxSeconds);
  }

  public LbfgsSettings withMaxIterations(int maxIterations) {
    return new LbfgsSettings(
        history, gradientTolerance, relativeTolerance, maxIterations, maxEvaluations, maxSeconds);
  }

  public LbfgsSettings withMaxSeconds(double maxSeconds) {
    return new LbfgsSettings(
        history, gradientTolerance, relativeTolerance, maxIterations, maxEvaluations, maxSeconds);
  }
}
