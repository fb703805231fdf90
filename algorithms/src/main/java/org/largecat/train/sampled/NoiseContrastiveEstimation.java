package org.largecat.train.sampled;

import org.largecat.data.Dataset;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;

/**
 * Noise-contrastive estimation (Mnih and Teh 2012; the NCE baseline of unbiased-scalable-softmax
 * §4.1) with the utilities ψ as self-normalised log-probabilities: logistic regression of the true
 * class against |S| noise draws,
 *
 * <pre>  L̂ = log σ(ψ_y − log(|S| q_y)) + Σ_j log σ(−(ψ_j − log(|S| q_j))).</pre>
 *
 * The noise probability of a sampled class comes from its weight, |S| q_j = 1/w_j ({@link
 * ClassSampler}: w_j = 1/(|S| q_j) with q the sampling distribution over the classes other than y);
 * that of the true class, which the sampler never draws, is |S| q_y with q_y = 1/(K − 1) for
 * uniform sampling and q_y ∝ (n_y + 1)^p renormalised over the other classes for frequency
 * sampling. ∂L̂/∂ψ_y = σ(−Δ_y), ∂L̂/∂ψ_j = −σ(Δ_j), Δ = ψ − log(|S| q).
 */
final class NoiseContrastiveEstimation extends SampledBound {
  /** log(|S| q_y) of each example's true class y. */
  private final double[] labelLogNoise;

  /**
   * NCE for the examples with these {@code labels}, the classes sampled |S| = {@code sampled} at a
   * time ∝ (count + 1)^power among those other than the label (power 0: uniformly).
   */
  NoiseContrastiveEstimation(Dataset data, double power, int sampled) {
    int[] counts = data.classCounts();
    double total = 0;
    double[] mass = new double[counts.length];
    for (int k = 0; k < counts.length; k++) {
      mass[k] = power == 0 ? 1 : Math.pow(counts[k] + 1.0, power);
      total += mass[k];
    }
    labelLogNoise = new double[data.rows()];
    for (int n = 0; n < labelLogNoise.length; n++) {
      double m = mass[data.labels()[n]];
      labelLogNoise[n] = Math.log(sampled * m / (total - m));
    }
  }

  @Override
  Worker worker(Kernels kernels, int slots) {
    double[] margin = new double[slots];
    double[] slope = new double[slots];
    return (n, scores, s, weight, logWeight, coef, random) -> {
      // margin: +Δ_y for the true class, −Δ_j for the noise; the objective is Σ log σ(margin).
      margin[0] = scores[0] - labelLogNoise[n];
      for (int j = 1; j <= s; j++) {
        margin[j] = -(scores[j] + logWeight[j - 1]);
      }
      for (int j = 0; j <= s; j++) {
        slope[j] = -margin[j];
      }
      kernels
          .specialFunctions()
          .apply(ElementwiseFunction.LOG_SIGMOID, s + 1, margin, 0, margin, 0);
      kernels.specialFunctions().apply(ElementwiseFunction.LOG_SIGMOID, s + 1, slope, 0, slope, 0);
      kernels.specialFunctions().apply(ElementwiseFunction.EXP, s + 1, slope, 0, slope, 0);
      double objective = 0;
      for (int j = 0; j <= s; j++) {
        objective += margin[j];
      }
      coef[0] = (float) slope[0];
      for (int j = 1; j <= s; j++) {
        coef[j] = (float) -slope[j];
      }
      return objective;
    };
  }
}
