package org.largecat.train.sampled;

import java.util.Arrays;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.VectorOps;
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
      double old = logEta[n];
      double updated = localStep(n, logEtaTilde);
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
      return estimate(old, logEtaTilde);
    };
  }

  /**
   * The same step in float on the gemm's row: the softmax of v_k = ψ_k + log w_k gives p_k and log
   * Σ_S w_k e^{ψ_k} in one call, so w_k e^{ψ_k − ψ_y − log η} = p_k·e^{log Σ − ψ_y − log η} is one
   * scaling of the row, and the label's coefficient, their sum, is that factor (Σ p_k = 1).
   */
  @Override
  SharedRowWorker sharedRowWorker(Kernels kernels) {
    VectorOps ops = kernels.vectorOps();
    return (n, labelScore, row, at, s, labelCoef, labelAt) -> {
      double logSum = ops.softmax(s, row, at);
      if (logSum == Double.NEGATIVE_INFINITY) {
        Arrays.fill(row, at, at + s, 0f); // S held only the label: no term, η̃ = 1
      }
      double logEtaTilde = Logistic.softplus(logSum - labelScore);
      double old = logEta[n];
      double factor = Math.exp(logSum - labelScore - localStep(n, logEtaTilde));
      ops.scale(s, (float) -factor, row, at);
      labelCoef[labelAt] = (float) factor;
      return estimate(old, logEtaTilde);
    };
  }

  /** Moves log η_n toward log η̃ with this visit's α and returns the new log η_n. */
  private double localStep(int n, double logEtaTilde) {
    int v = steps.next(n);
    double updated = logAddExp(steps.logComplement(v) + logEta[n], steps.logAlpha(v) + logEtaTilde);
    logEta[n] = updated;
    return updated;
  }

  /** Eq. 8 at η_n from before the local step. */
  private static double estimate(double logEta, double logEtaTilde) {
    return 1 - logEta - Math.exp(logEtaTilde - logEta);
  }

  private static double logAddExp(double a, double b) {
    double max = Math.max(a, b);
    return max + Math.log1p(Math.exp(Math.min(a, b) - max));
  }
}
