package org.largecat.train.sampled;

import org.largecat.kernel.Kernels;

/**
 * The per-example objective a {@link SampledTrainer} maximises, estimated from the true class and a
 * sample S of the others, with its derivatives in those utilities. Implementations hold the
 * per-example local variational parameters; examples of one mini-batch are distinct, so workers on
 * different threads never touch the same example.
 */
abstract class SampledBound {

  /**
   * Returns an evaluator for one thread, with scratch space for {@code slots} = |S| + 1 utilities.
   */
  abstract Worker worker(Kernels kernels, int slots);

  /** Evaluates the bound of one example at a time; not thread-safe, allocation-free. */
  interface Worker {
    /**
     * Estimates the bound of example {@code n} and its gradient.
     *
     * @param scores ψ_y in {@code scores[0]}, the sampled classes' ψ in {@code scores[1..s]}
     * @param s the number of sampled classes
     * @param weight w_j of each sampled class, which makes Σ_j w_j f(k_j) unbiased for Σ_{k≠y} f(k)
     *     ({@link ClassSampler})
     * @param logWeight log w_j
     * @param coef receives ∂L̂/∂ψ for each of the s + 1 slots
     * @return the estimate L̂ of the example's bound
     */
    double step(
        int n,
        double[] scores,
        int s,
        double[] weight,
        double[] logWeight,
        float[] coef,
        CounterRandom random);
  }
}
