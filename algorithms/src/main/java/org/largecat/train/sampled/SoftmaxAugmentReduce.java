package org.largecat.train.sampled;

import java.util.Arrays;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.special.Logistic;

/**
 * Softmax A&R (Algorithm 1). Each example keeps η_n of q(ε) = Gumbel-type with natural parameter η;
 * the bound is Eq. 8, L = 1 − log η − (1 + Σ_{k≠y} e^{ψ_k − ψ_y})/η. The local step moves η_n
 * toward η̃ = 1 + Σ_S w_j e^{ψ_k − ψ_y} (w_j = (K−1)/|S| for uniform S) with weight α = (1 +
 * v)^−0.9; the global step takes ∂L/∂ψ_k = −w_j·e^{ψ_k − ψ_y}/η for sampled k and minus their sum
 * for y.
 *
 * <p>η is kept as log η, and η̃ is formed as softplus(logsumexp(ψ_S − ψ_y + log w)), so neither
 * overflows however wrong the model is; the coefficients w_j·e^{ψ_k − ψ_y − log η} are bounded by
 * 1/α because the update puts log η above log α + log η̃.
 *
 * <p>The returned estimate of Eq. 8 uses η_n from before the local step: η̃ and η would otherwise
 * share the sample, and at a first visit (η = η̃) the estimate −log η̃ would lie above the bound on
 * average (Jensen). η_n starts at K, its optimum when all utilities are equal, as they nearly are
 * at the start (§4's N(0, 0.1²) weights); the first local step (α = 1) replaces it by η̃.
 *
 * <p>The paper writes α with the global iteration t. Here v counts the visits to example n (0 at
 * the first): with t, an example seen once an epoch gets α ≈ 2·10⁻⁴ after 10⁴ iterations, η_n
 * freezes at values from the first epochs, and the weights converge to a visibly worse optimum
 * (−2.096 against −2.058 test log-likelihood on the K = 20 test of SampledTrainerTest); with v each
 * η_n is its own Robbins–Monro average of η̃.
 */
final class SoftmaxAugmentReduce extends SampledBound {
  private final double[] logEta;
  private final LocalStepSize steps;

  SoftmaxAugmentReduce(int examples, int classes) {
    logEta = new double[examples];
    Arrays.fill(logEta, Math.log(classes));
    steps = new LocalStepSize(examples, 1);
  }

  @Override
  Worker worker(Kernels kernels, int slots) {
    double[] scratch = new double[slots];
    return (n, scores, s, weight, logWeight, coef, random) -> {
      double psiY = scores[0];
      for (int j = 0; j < s; j++) {
        scratch[j] = scores[j + 1] - psiY + logWeight[j];
      }
      double logEtaTilde = Logistic.softplus(kernels.vectorOps().logSumExp(s, scratch, 0));
      int v = steps.next(n);
      double old = logEta[n];
      double updated = logAddExp(steps.logComplement(v) + old, steps.logAlpha(v) + logEtaTilde);
      logEta[n] = updated;
      for (int j = 0; j < s; j++) {
        scratch[j] -= updated;
      }
      kernels.specialFunctions().apply(ElementwiseFunction.EXP, s, scratch, 0, scratch, 0);
      double sum = 0;
      for (int j = 0; j < s; j++) {
        coef[j + 1] = (float) -scratch[j];
        sum += scratch[j];
      }
      coef[0] = (float) sum;
      return 1 - old - Math.exp(logEtaTilde - old);
    };
  }

  private static double logAddExp(double a, double b) {
    double max = Math.max(a, b);
    return max + Math.log1p(Math.exp(Math.min(a, b) - max));
  }
}
