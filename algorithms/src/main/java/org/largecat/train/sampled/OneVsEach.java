package org.largecat.train.sampled;

import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;

/**
 * The one-vs-each bound on the softmax (A&R Eq. 10): L = Σ_{k≠y} log σ(ψ_y − ψ_k), estimated as Σ_S
 * w_j log σ(ψ_y − ψ_k); ∂L/∂ψ_k = −w_j·σ(ψ_k − ψ_y). No local parameters.
 */
final class OneVsEach extends SampledBound {

  @Override
  Worker worker(Kernels kernels, int slots) {
    double[] margin = new double[slots];
    double[] negated = new double[slots];
    return (n, scores, s, weight, logWeight, coef, random) -> {
      for (int j = 0; j < s; j++) {
        margin[j] = scores[0] - scores[j + 1];
        negated[j] = -margin[j];
      }
      kernels.specialFunctions().apply(ElementwiseFunction.LOG_SIGMOID, s, margin, 0, margin, 0);
      kernels.specialFunctions().apply(ElementwiseFunction.LOG_SIGMOID, s, negated, 0, negated, 0);
      kernels.specialFunctions().apply(ElementwiseFunction.EXP, s, negated, 0, negated, 0);
      double bound = 0;
      double sum = 0;
      for (int j = 0; j < s; j++) {
        bound += weight[j] * margin[j];
        double c = weight[j] * negated[j];
        sum += c;
        coef[j + 1] = (float) -c;
      }
      coef[0] = (float) sum;
      return bound;
    };
  }
}
