package org.largecat.train.sampled;

import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;

/**
 * Exact softmax log-likelihood (A&R Eq. 1) as a "bound" over every class: L = ψ_y − log Σ_k
 * e^{ψ_k}, ∂L/∂ψ_k = [k = y] − p_k. The trainer hands it all K − 1 other classes (weights 1,
 * unused).
 */
final class ExactSoftmax extends SampledBound {

  @Override
  Worker worker(Kernels kernels, int slots) {
    double[] p = new double[slots];
    return (n, scores, s, weight, logWeight, coef, random) -> {
      double logZ = kernels.vectorOps().logSumExp(s + 1, scores, 0);
      for (int j = 0; j <= s; j++) {
        p[j] = scores[j] - logZ;
      }
      kernels.specialFunctions().apply(ElementwiseFunction.EXP, s + 1, p, 0, p, 0);
      double others = 0;
      for (int j = 1; j <= s; j++) {
        coef[j] = (float) -p[j];
        others += p[j];
      }
      coef[0] = (float) others;
      return scores[0] - logZ;
    };
  }
}
