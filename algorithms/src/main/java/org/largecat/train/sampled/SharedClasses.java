package org.largecat.train.sampled;

import org.largecat.kernel.Kernels;

/**
 * Shared mode's class set S of one iteration, for the trainers whose scores against S are one gemm
 * per thread chunk: the classes and their weights ({@link ClassSampler#sampleShared}), the offsets
 * the gemm adds to the scores, and per thread the bound's step on a row of the gemm's output.
 *
 * <p>With a bound that has a {@link SampledBound.SharedRowWorker} the offsets are b_k + log w_k and
 * the row is stepped in float in place; otherwise they are b_k and the row's scores go through the
 * bound's double {@link SampledBound.Worker}, with the label's slots taken out of S's weights.
 */
final class SharedClasses {
  /** S's classes, and their weights and logs before an example's label is taken out. */
  final int[] rows;

  final double[] weight;
  final double[] logWeight;

  private final int sampled;
  private final float[] offsets;
  private final SharedSlots slots;
  private final ClassSampler sampler;
  private final CounterRandom random = new CounterRandom();
  private final SampledBound bound;
  private final Kernels kernels;
  private final boolean rowSteps;

  SharedClasses(
      ClassSampler sampler, int classes, int sampled, SampledBound bound, Kernels kernels) {
    this.sampler = sampler.copy();
    this.sampled = sampled;
    this.bound = bound;
    this.kernels = kernels;
    rows = new int[sampled];
    weight = new double[sampled];
    logWeight = new double[sampled];
    offsets = new float[sampled];
    slots = new SharedSlots(classes, sampled);
    rowSteps = bound.sharedRowWorker(kernels) != null;
  }

  /** Draws the set of {@code iteration} and its offsets from the biases. */
  void draw(long seed, int iteration, double[] biases) {
    random.reseed(seed, iteration, -1);
    sampler.sampleShared(rows, 0, weight, random);
    slots.index(rows);
    for (int j = 0; j < sampled; j++) {
      logWeight[j] = Math.log(weight[j]);
      offsets[j] = (float) (biases[rows[j]] + (rowSteps ? logWeight[j] : 0));
    }
  }

  /**
   * Fills {@code count} rows of |S| scores with the offsets, for the scores gemm to add to with β =
   * 1: an add per score costs more than the copy.
   */
  void prefill(float[] block, int count) {
    for (int at = 0; at < count * sampled; at += sampled) {
      System.arraycopy(offsets, 0, block, at, sampled);
    }
  }

  /** The step of one thread. */
  Stepper stepper() {
    return new Stepper();
  }

  /** The bound's step on rows of the gemm's output; not thread-safe, allocation-free. */
  final class Stepper {
    private final SampledBound.SharedRowWorker rowBound;
    private final SampledBound.Worker doubles;
    private final double[] exampleWeight = new double[sampled];
    private final double[] exampleLogWeight = new double[sampled];
    private final double[] scores = new double[sampled + 1];
    private final float[] coef = new float[sampled + 1];
    private final CounterRandom exampleRandom = new CounterRandom();
    private int weightsOf = -1;

    private Stepper() {
      rowBound = rowSteps ? bound.sharedRowWorker(kernels) : null;
      doubles = rowSteps ? null : bound.worker(kernels, sampled + 1);
    }

    /**
     * Example n's step at iteration {@code iteration}: its label's score, and S's scores plus the
     * offsets in block[at, at + |S|), which are replaced by their coefficients ∂L̂/∂ψ_k; the
     * label's coefficient goes to labelCoef[labelAt]. Returns the estimate L̂.
     */
    double step(
        int n,
        int label,
        double labelScore,
        float[] block,
        int at,
        float[] labelCoef,
        int labelAt,
        long seed,
        int iteration) {
      if (rowBound != null) {
        slots.exclude(label, block, at);
        return rowBound.step(n, labelScore, block, at, sampled, labelCoef, labelAt);
      }
      if (weightsOf != iteration) {
        System.arraycopy(weight, 0, exampleWeight, 0, sampled);
        System.arraycopy(logWeight, 0, exampleLogWeight, 0, sampled);
        weightsOf = iteration;
      }
      exampleRandom.reseed(seed, iteration, n);
      slots.exclude(label, exampleWeight, exampleLogWeight);
      scores[0] = labelScore;
      for (int j = 0; j < sampled; j++) {
        scores[j + 1] = block[at + j];
      }
      double estimate =
          doubles.step(n, scores, sampled, exampleWeight, exampleLogWeight, coef, exampleRandom);
      slots.restore(label, weight, logWeight, exampleWeight, exampleLogWeight);
      labelCoef[labelAt] = coef[0];
      System.arraycopy(coef, 1, block, at, sampled);
      return estimate;
    }
  }
}
