package org.largecat.train;

/** The tests' softmax from its definition (A&R Eq. 1), in double. */
public final class LogSoftmax {
  private LogSoftmax() {}

  /** log Σ_k e^{ψ_k}, the sum shifted by the largest ψ_k. */
  public static double logSumExp(double[] psi) {
    double max = Double.NEGATIVE_INFINITY;
    for (double p : psi) {
      max = Math.max(max, p);
    }
    double z = 0;
    for (double p : psi) {
      z += Math.exp(p - max);
    }
    return max + Math.log(z);
  }

  /** log p(y | ψ) = ψ_y − log Σ_k e^{ψ_k}. */
  public static double of(double[] psi, int y) {
    return psi[y] - logSumExp(psi);
  }
}
