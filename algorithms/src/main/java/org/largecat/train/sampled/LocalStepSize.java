package org.largecat.train.sampled;

/**
 * The local step sizes of A&R §4, α = scale·(1 + v)^−0.9, where v counts the local steps example n
 * has had (see {@link SoftmaxAugmentReduce} on why v rather than the global iteration); α, log α
 * and log(1 − α) come from tables for the first visits, so the per-example step needs no pow or
 * log1p.
 */
final class LocalStepSize {
  private static final int TABULATED = 4096;

  private final int[] visits;
  private final double scale;
  private final double[] alpha = new double[TABULATED];
  private final double[] logAlpha = new double[TABULATED];
  private final double[] logComplement = new double[TABULATED];

  LocalStepSize(int examples, double scale) {
    this.visits = new int[examples];
    this.scale = scale;
    for (int v = 0; v < TABULATED; v++) {
      alpha[v] = compute(v);
      logAlpha[v] = Math.log(alpha[v]);
      logComplement[v] = Math.log1p(-alpha[v]);
    }
  }

  /** Returns the visits to example n before this one, and counts this one. */
  int next(int n) {
    return visits[n]++;
  }

  double alpha(int v) {
    return v < TABULATED ? alpha[v] : compute(v);
  }

  double logAlpha(int v) {
    return v < TABULATED ? logAlpha[v] : Math.log(compute(v));
  }

  /** log(1 − α). */
  double logComplement(int v) {
    return v < TABULATED ? logComplement[v] : Math.log1p(-compute(v));
  }

  private double compute(int v) {
    return scale * Math.pow(1 + v, -0.9);
  }
}
