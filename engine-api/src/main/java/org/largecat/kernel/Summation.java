package org.largecat.kernel;

/**
 * A plain double sum, fast and in a fixed order, for the algorithms' totals and the kernels'
 * fallbacks.
 */
public final class Summation {
  private Summation() {}

  /**
   * v[0] + ... + v[n - 1] in four interleaved partial sums, so the additions do not wait on one
   * another (a single running sum, like the double dot product of the scalar vector ops, is bound
   * by the latency of each addition); the order is fixed, so the result is too.
   */
  public static double sum(int n, double[] v) {
    Checks.count("sum", "n", n);
    Checks.span("sum", "v", v, 0, n);
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    int i = 0;
    for (; i <= n - 4; i += 4) {
      s0 += v[i];
      s1 += v[i + 1];
      s2 += v[i + 2];
      s3 += v[i + 3];
    }
    for (; i < n; i++) {
      s0 += v[i];
    }
    return (s0 + s1) + (s2 + s3);
  }
}
