package org.largecat.train;

import java.io.Serializable;
import java.util.Objects;

/**
 * Settings of a sampled-bound trainer run ({@code train.sampled}); Serializable, as the {@code
 * spark} module ships them to its executors.
 *
 * @param method the bound to maximise
 * @param batch examples per iteration |B|
 * @param sampled classes sampled per example |S| (ignored by exact softmax, which uses all K − 1)
 * @param seed the seed; a run is reproducible bit for bit (shared sampling with dense x: for a seed
 *     and thread count)
 * @param threads worker threads (≥ 1)
 * @param stepSize the adaptive schedule of the global step
 * @param weightScale standard deviation of the initial weights (paper: 0.1)
 * @param biasScale standard deviation of the initial biases (paper: 0.001)
 * @param samplingPower 0 to sample classes uniformly (the paper), or p > 0 to sample them ∝ (count
 *     + 1)^p with importance weights (the class sampler of {@code train.sampled})
 * @param sampling per-example class sets or one set shared by each mini-batch
 * @param priorVariance 0 for maximum likelihood (the paper), or σ² > 0 of a N(0, σ²) prior on every
 *     weight and bias (MAP)
 */
public record SampledSpec(
    Method method,
    int batch,
    int sampled,
    long seed,
    int threads,
    StepSizeSchedule stepSize,
    double weightScale,
    double biasScale,
    double samplingPower,
    Sampling sampling,
    double priorVariance)
    implements TrainerSpec, Serializable {

  public SampledSpec {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(sampling, "sampling");
    Objects.requireNonNull(stepSize, "stepSize");
    if (method.isDoubleSum() || method.isFullBatch()) {
      throw new IllegalArgumentException(method.label() + " is not a sampled-bound method");
    }
    if (batch < 1 || sampled < 1 || threads < 1) {
      throw new IllegalArgumentException(
          "batch = "
              + batch
              + ", sampled = "
              + sampled
              + ", threads = "
              + threads
              + ": each must be >= 1");
    }
    if (!(weightScale >= 0 && weightScale < Double.POSITIVE_INFINITY)
        || !(biasScale >= 0 && biasScale < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "weightScale = "
              + weightScale
              + " and biasScale = "
              + biasScale
              + " must be finite and >= 0");
    }
    if (!(priorVariance >= 0 && priorVariance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "priorVariance = " + priorVariance + " must be finite and >= 0");
    }
    if (!(samplingPower >= 0 && samplingPower < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "samplingPower = " + samplingPower + " must be finite and >= 0");
    }
  }

  /**
   * The papers' settings for {@code method}, seed 1, all cores: A&R §4 (|B| = 500, |S| = 100, the
   * adaptive schedule, initial weights and biases N(0, 0.1²) and N(0, 0.001²)); NCE and IS as
   * unbiased-scalable-softmax §4.1 (n = 100, m = 5, plain SGD ×0.9 per epoch from {@link
   * TrainerSpec#defaultSgdLearningRate}).
   */
  public static Builder builder(Method method) {
    Builder builder = new Builder(method);
    if (method == Method.NCE || method == Method.IMPORTANCE_SAMPLING) {
      builder.batch(100).sampled(5).plainSgd(TrainerSpec.defaultSgdLearningRate(method));
    }
    return builder;
  }

  /** A builder holding these settings. */
  public Builder toBuilder() {
    return new Builder(method)
        .batch(batch)
        .sampled(sampled)
        .seed(seed)
        .threads(threads)
        .stepSize(stepSize)
        .weightScale(weightScale)
        .biasScale(biasScale)
        .samplingPower(samplingPower)
        .sampling(sampling)
        .priorVariance(priorVariance);
  }

  /** Settings of a {@link SampledSpec}; {@link #build} checks them. */
  public static final class Builder {
    private final Method method;
    private int batch = 500;
    private int sampled = 100;
    private long seed = 1;
    private int threads = Runtime.getRuntime().availableProcessors();
    private StepSizeSchedule stepSize = StepSizeSchedule.PAPER;
    private double weightScale = 0.1;
    private double biasScale = 0.001;
    private double samplingPower;
    private Sampling sampling = Sampling.PER_EXAMPLE;
    private double priorVariance;

    private Builder(Method method) {
      this.method = Objects.requireNonNull(method, "method");
    }

    public Builder batch(int batch) {
      this.batch = batch;
      return this;
    }

    public Builder sampled(int sampled) {
      this.sampled = sampled;
      return this;
    }

    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    public Builder stepSize(StepSizeSchedule stepSize) {
      this.stepSize = stepSize;
      return this;
    }

    /**
     * Plain SGD at {@code learningRate}, ×0.9 per epoch (unbiased-scalable-softmax §4.1), and, for
     * OVE, NCE and IS, that paper's n = 100 datapoints and m = 5 classes per iteration.
     */
    public Builder plainSgd(double learningRate) {
      stepSize(new StepSizeSchedule.Sgd(learningRate, 0.9));
      return method == Method.OVE || method == Method.NCE || method == Method.IMPORTANCE_SAMPLING
          ? batch(100).sampled(5)
          : this;
    }

    public Builder weightScale(double weightScale) {
      this.weightScale = weightScale;
      return this;
    }

    public Builder biasScale(double biasScale) {
      this.biasScale = biasScale;
      return this;
    }

    public Builder samplingPower(double samplingPower) {
      this.samplingPower = samplingPower;
      return this;
    }

    public Builder sampling(Sampling sampling) {
      this.sampling = sampling;
      return this;
    }

    public Builder priorVariance(double priorVariance) {
      this.priorVariance = priorVariance;
      return this;
    }

    /**
     * @throws IllegalArgumentException when a setting is out of its range, or the method is not a
     *     sampled-bound one
     */
    public SampledSpec build() {
      return new SampledSpec(
          method,
          batch,
          sampled,
          seed,
          threads,
          stepSize,
          weightScale,
          biasScale,
          samplingPower,
          sampling,
          priorVariance);
    }
  }
}
