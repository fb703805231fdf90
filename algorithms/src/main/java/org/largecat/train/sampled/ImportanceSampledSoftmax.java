package org.largecat.train.sampled;

import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;

/**
 * Importance sampling (Bengio and Senécal 2008; the IS baseline of unbiased-scalable-softmax §4.1):
 * the sampled softmax with the log-Q correction, L̂ = ψ_y − log(e^{ψ_y} + Σ_j w_j e^{ψ_j}), each
 * sampled class's utility shifted by log w_j = −log(|S| q_j) so that Σ_j w_j e^{ψ_j} estimates the
 * normaliser's other terms. ∂L̂/∂ψ_y = 1 − π_y and ∂L̂/∂ψ_j = −π_j, with π the softmax over the |S|
 * + 1 shifted utilities. Biased: log of an unbiased estimate.
 */
final class ImportanceSampledSoftmax extends SampledBound {

  @Override
  Worker worker(Kernels kernels, int slots) {
    double[] shifted = new double[slots];
    return (n, scores, s, weight, logWeight, coef, random) -> {
      shifted[0] = scores[0];
      for (int j = 1; j <= s; j++) {
        shifted[j] = scores[j] + logWeight[j - 1];
      }
      double logZ = kernels.vectorOps().logSumExp(s + 1, shifted, 0);
      for (int j = 0; j <= s; j++) {
        shifted[j] -= logZ;
      }
      kernels.specialFunctions().apply(ElementwiseFunction.EXP, s + 1, shifted, 0, shifted, 0);
      double others = 0;
      for (int j = 1; j <= s; j++) {
        coef[j] = (float) -shifted[j];
        others += shifted[j];
      }
      coef[0] = (float) others;
      return scores[0] - logZ;
    };
  }
}
