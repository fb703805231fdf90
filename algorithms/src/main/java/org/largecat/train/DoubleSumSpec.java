package org.largecat.train;

import java.util.Objects;

/**
 * Settings of the double-sum trainers ({@code train.doublesum}; Fagan and Iyengar, "Unbiased
 * scalable softmax optimization"). Every trainer minimises the mean-scale objective f(u, W)/N of
 * Eq. 5 (the paper's Algorithm 1 writes the factor N into each gradient; the learning rates of its
 * §4.1 grid, 10⁻³ to 10³, are of the per-datapoint scale used here).
 *
 * @param method one of sgd, umax, isgd, isgd-batch, umax-raman
 * @param learningRate η of the first epoch
 * @param epochDecay the factor applied to η after every epoch (§4.1: 0.9)
 * @param uEpochDecay the same for the learning rate of the u_i of the one-pair methods: 1 by
 *     default, so that u_i keeps η of the first epoch; §4.1 decays every parameter alike (give
 *     {@code epochDecay}). u_i is updated once per epoch, so under a decay of 0.9 its whole run
 *     moves it at most Σ_e η·0.9^e &lt; 10η: U-max's u_i, which only its gradient can lower and by
 *     less than η per update (the gradient 1 − e^{−u} − (K − 1)e^{z − u} is below 1), stays near
 *     its start log K while the optimal u_i fall as W is fitted, and the W gradient (K − 1)e^{z −
 *     u} stays too small. On the known-optimum test problem (K = 50, 50 epochs) this leaves U-max
 *     at 0.1 1.4% above the optimal objective, and 0.3% with u_i's rate held.
 * @param ridge μ of Eq. 2 on the mean scale: the trainers minimise −(1/N) Σ log p + (μ/2)‖W‖², the
 *     biases counted in ‖W‖ (they are the weight of a constant feature 1). §4.1 uses 0.
 * @param threshold δ of U-max (App. C; §4.1: 1)
 * @param blockSize work items (pairs, or mini-batches for isgd-batch) per {@code step()}; they run
 *     as if one after another, those touching disjoint classes in parallel
 * @param batchPoints n, datapoints per fixed mini-batch of isgd-batch (App. F.3); 1 for the
 *     one-pair methods
 * @param batchClasses m, sampled classes per mini-batch of isgd-batch; 1 for the one-pair methods
 * @param innerTolerance the Newton solve of Eq. 21 stops when half the squared Newton decrement,
 *     the predicted distance to the minimum in objective value, is below this times max(1, Φ)
 * @param seed the seed; a run is reproducible bit for bit for a seed and thread count
 * @param threads worker threads
 */
public record DoubleSumSpec(
    Method method,
    double learningRate,
    double epochDecay,
    double uEpochDecay,
    double ridge,
    double threshold,
    int blockSize,
    int batchPoints,
    int batchClasses,
    double innerTolerance,
    long seed,
    int threads)
    implements TrainerSpec {

  /** Pairs per {@code step()} of the one-pair methods, and datapoints per step of isgd-batch. */
  public static final int POINTS_PER_STEP = 500;

  public DoubleSumSpec {
    if (!method.isDoubleSum()) {
      throw new IllegalArgumentException(method.label() + " is not a double-sum method");
    }
    if (!(learningRate > 0 && learningRate < Double.POSITIVE_INFINITY)
        || !(epochDecay > 0 && epochDecay <= 1)
        || !(uEpochDecay > 0 && uEpochDecay <= 1)) {
      throw new IllegalArgumentException(
          "learning rate "
              + learningRate
              + " must be positive and finite, epoch decays "
              + epochDecay
              + " (W) and "
              + uEpochDecay
              + " (u) in (0, 1]");
    }
    if (!(ridge >= 0 && ridge < Double.POSITIVE_INFINITY)
        || !(threshold > 0 && threshold < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "ridge "
              + ridge
              + " must be finite and >= 0, threshold "
              + threshold
              + " finite and > 0");
    }
    if (blockSize < 1 || batchPoints < 1 || batchClasses < 1 || threads < 1) {
      throw new IllegalArgumentException(
          "block size "
              + blockSize
              + ", batch points "
              + batchPoints
              + ", batch classes "
              + batchClasses
              + " and threads "
              + threads
              + " must each be >= 1");
    }
    if (!(innerTolerance > 0)) {
      throw new IllegalArgumentException("inner tolerance " + innerTolerance + " must be > 0");
    }
  }

  /**
   * §4.1's settings for {@code method}, seed 1, all cores: η = {@link
   * TrainerSpec#defaultSgdLearningRate}, ×0.9 per epoch, u_i's rate not decayed, μ = 0, δ = 1; for
   * isgd-batch n = m = 5 (App. F.3), else one datapoint and one class; {@value #POINTS_PER_STEP}
   * datapoints per step; inner tolerance 1e-10.
   */
  public static Builder builder(Method method) {
    Builder builder = new Builder(method);
    return method == Method.IMPLICIT_SGD_BATCH ? builder.miniBatch(5, 5) : builder;
  }

  /** A builder holding these settings, the block size among them. */
  public Builder toBuilder() {
    return new Builder(method)
        .learningRate(learningRate)
        .epochDecay(epochDecay)
        .uEpochDecay(uEpochDecay)
        .ridge(ridge)
        .threshold(threshold)
        .blockSize(blockSize)
        .miniBatch(batchPoints, batchClasses)
        .innerTolerance(innerTolerance)
        .seed(seed)
        .threads(threads);
  }

  /** η during epoch {@code epoch} (from 0): η·decay^epoch. */
  public double rate(long epoch) {
    return learningRate * Math.pow(epochDecay, epoch);
  }

  /** u_i's learning rate during epoch {@code epoch}: η·uEpochDecay^epoch. */
  public double uRate(long epoch) {
    return learningRate * Math.pow(uEpochDecay, epoch);
  }

  /** Settings of a {@link DoubleSumSpec}; {@link #build} checks them. */
  public static final class Builder {
    private final Method method;
    private double learningRate;
    private double epochDecay = 0.9;
    private double uEpochDecay = 1;
    private double ridge;
    private double threshold = 1;
    private Integer blockSize;
    private int batchPoints = 1;
    private int batchClasses = 1;
    private double innerTolerance = 1e-10;
    private long seed = 1;
    private int threads = Runtime.getRuntime().availableProcessors();

    private Builder(Method method) {
      this.method = Objects.requireNonNull(method, "method");
      this.learningRate = TrainerSpec.defaultSgdLearningRate(method);
    }

    public Builder learningRate(double learningRate) {
      this.learningRate = learningRate;
      return this;
    }

    public Builder epochDecay(double epochDecay) {
      this.epochDecay = epochDecay;
      return this;
    }

    /** u_i's decay per epoch (§4.1 literally: {@code epochDecay}). */
    public Builder uEpochDecay(double uEpochDecay) {
      this.uEpochDecay = uEpochDecay;
      return this;
    }

    public Builder ridge(double ridge) {
      this.ridge = ridge;
      return this;
    }

    public Builder threshold(double threshold) {
      this.threshold = threshold;
      return this;
    }

    /**
     * Work items per step; unset, {@value #POINTS_PER_STEP} pairs, or for isgd-batch the
     * mini-batches of {@value #POINTS_PER_STEP} datapoints (at least one).
     */
    public Builder blockSize(int blockSize) {
      this.blockSize = blockSize;
      return this;
    }

    /** isgd-batch's n datapoints and m classes per mini-batch. */
    public Builder miniBatch(int points, int classes) {
      this.batchPoints = points;
      this.batchClasses = classes;
      return this;
    }

    public Builder innerTolerance(double innerTolerance) {
      this.innerTolerance = innerTolerance;
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

    /**
     * @throws IllegalArgumentException when a setting is out of its range, or the method is not a
     *     double-sum one
     */
    public DoubleSumSpec build() {
      int block =
          blockSize != null
              ? blockSize
              : method == Method.IMPLICIT_SGD_BATCH
                  ? Math.max(1, POINTS_PER_STEP / Math.max(1, batchPoints))
                  : POINTS_PER_STEP;
      return new DoubleSumSpec(
          method,
          learningRate,
          epochDecay,
          uEpochDecay,
          ridge,
          threshold,
          block,
          batchPoints,
          batchClasses,
          innerTolerance,
          seed,
          threads);
    }
  }
}
