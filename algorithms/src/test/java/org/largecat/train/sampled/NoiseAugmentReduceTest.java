package org.largecat.train.sampled;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.Kernels;
import org.largecat.model.Link;

/**
 * The probit and logistic A&R bound (Eq. 7) for a fixed model and mini-batch against values
 * computed outside largecat. At the start every q(ε_n) is the noise density f itself, so E_q[log
 * f(ε)] + H[q] = 0 and Eq. 7 is Σ_{k≠y} E_f[log F(ε + ψ_y − ψ_k)]; with S every other class at
 * weight 1 the estimate is that sum. The expected values are SciPy's adaptive quadrature of it:
 * {@code scipy.integrate.quad(lambda e: pdf(e) * logF(e + m), -inf, inf, epsabs=1e-14,
 * epsrel=1e-13)} summed over the pairs, with pdf, logF = {@code scipy.stats.norm.pdf, log_ndtr} and
 * {@code scipy.stats.logistic.pdf, -logaddexp(0, -z)}, for W, b, x and y below.
 */
class NoiseAugmentReduceTest {
  private static final double[][] W = {{0.5, -1.0}, {1.5, 0.25}, {-0.75, 2.0}, {0.0, 0.0}};
  private static final double[] B = {0.1, -0.2, 0.3, 0.0};
  private static final double[][] X = {{1.0, -0.5}, {0.3, 2.0}};
  private static final int[] Y = {2, 0};

  /** (N/|B|) Σ_B L_n for N = |B| = 2: the batch's bound, from a fresh trainer state. */
  private static double batchBound(Link link) {
    int classes = W.length;
    int s = classes - 1;
    SampledBound.Worker worker =
        new NoiseAugmentReduce(link, X.length).worker(Kernels.of("scalar"), classes);
    double[] weight = new double[s];
    Arrays.fill(weight, 1);
    double[] logWeight = new double[s];
    CounterRandom random = new CounterRandom();
    double total = 0;
    for (int n = 0; n < X.length; n++) {
      double[] scores = new double[classes];
      scores[0] = utility(Y[n], X[n]);
      for (int k = 0, j = 1; k < classes; k++) {
        if (k != Y[n]) {
          scores[j++] = utility(k, X[n]);
        }
      }
      random.reseed(1, 1, n);
      total += worker.step(n, scores, s, weight, logWeight, new float[classes], random);
    }
    return total;
  }

  private static double utility(int k, double[] x) {
    return W[k][0] * x[0] + W[k][1] * x[1] + B[k];
  }

  @Test
  void probitBoundMatchesEq7ByIndependentQuadrature() {
    assertEquals(-43.93908033233655, batchBound(Link.PROBIT), 1e-6 * 43.9);
  }

  @Test
  void logisticBoundMatchesEq7ByIndependentQuadrature() {
    assertEquals(-18.174216438983308, batchBound(Link.LOGISTIC), 1e-6 * 18.2);
  }
}
