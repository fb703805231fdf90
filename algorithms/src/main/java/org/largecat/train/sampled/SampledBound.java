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

  /**
   * Returns an evaluator for one thread of shared mode that works on a row of float scores in
   * place, or null when the bound has none and shared mode goes through {@link #worker}.
   */
  SharedRowWorker sharedRowWorker(Kernels kernels) {
    return null;
  }

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

  /**
   * Shared mode's evaluator on the gemm's output: one pass over a row of float scores, which it
   * overwrites with their coefficients, instead of copying them into doubles for {@link Worker}.
   * Not thread-safe, allocation-free.
   */
  interface SharedRowWorker {
    /**
     * Estimates the bound of example {@code n} and its gradient.
     *
     * @param labelScore ψ_y
     * @param row holds ψ_k + log w_k of the s sampled classes at [at, at + s), −∞ where a sampled
     *     class is the label (weight 0), and receives ∂L̂/∂ψ_k there
     * @param labelCoef receives ∂L̂/∂ψ_y at {@code labelAt}
     * @return the estimate L̂ of the example's bound
     */
    double step(
        int n, double labelScore, float[] row, int at, int s, float[] labelCoef, int labelAt);
  }
}
