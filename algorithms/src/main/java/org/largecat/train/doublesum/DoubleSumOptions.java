package org.largecat.train.doublesum;

import org.largecat.train.Method;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.TrainingOptions;

/**
 * Settings of the double-sum trainers (Fagan and Iyengar, "Unbiased scalable softmax
 * optimization"). Every trainer minimises the mean-scale objective f(u, W)/N of Eq. 5 (the paper's
 * Algorithm 1 writes the factor N into each gradient; the learning rates of its §4.1 grid, 10⁻³ to
 * 10³, are of the per-datapoint scale used here).
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
 * @param batchPoints n, datapoints per fixed mini-batch of isgd-batch (App. F.3)
 * @param batchClasses m, sampled classes per mini-batch of isgd-batch
 * @param innerTolerance the Newton solve of Eq. 21 stops when half the squared Newton decrement,
 *     the predicted distance to the minimum in objective value, is below this times max(1, Φ)
 * @param seed the seed; a run is reproducible bit for bit for a seed and thread count
 * @param threads worker threads
 */
public record DoubleSumOptions(
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
    int threads) {

  /** Pairs per {@code step()} of the one-pair methods, and datapoints per step of isgd-batch. */
  public static final int POINTS_PER_STEP = 500;

  public DoubleSumOptions {
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
   * The double-sum settings of a {@link TrainingOptions}: η and its decay from its {@code Sgd}
   * schedule (an adaptive schedule is refused), seed and threads; for isgd-batch n = batch and m =
   * sampled; {@value #POINTS_PER_STEP} datapoints per step; u_i's rate not decayed; μ = 0 and δ = 1
   * as in §4.1; inner tolerance 1e-10.
   */
  public static DoubleSumOptions from(TrainingOptions options) {
    if (!(options.stepSize() instanceof StepSizeSchedule.Sgd sgd)) {
      throw new IllegalArgumentException(
          options.method().label() + " takes a plain SGD learning rate (--step sgd)");
    }
    boolean batched = options.method() == Method.IMPLICIT_SGD_BATCH;
    int block = batched ? Math.max(1, POINTS_PER_STEP / options.batch()) : POINTS_PER_STEP;
    return new DoubleSumOptions(
        options.method(),
        sgd.learningRate(),
        sgd.epochDecay(),
        1,
        0,
        1,
        block,
        batched ? options.batch() : 1,
        batched ? options.sampled() : 1,
        1e-10,
        options.seed(),
        options.threads());
  }

  public DoubleSumOptions withRidge(double ridge) {
    return new DoubleSumOptions(
        method,
        learningRate,
        epochDecay,
        uEpochDecay,
        ridge,
        threshold,
        blockSize,
        batchPoints,
        batchClasses,
        innerTolerance,
        seed,
        threads);
  }

  /**
   * These options with u_i's learning rate decayed by {@code uEpochDecay} per epoch (§4.1
   * literally: {@code epochDecay}).
   */
  public DoubleSumOptions withUEpochDecay(double uEpochDecay) {
    return new DoubleSumOptions(
        method,
        learningRate,
        epochDecay,
        uEpochDecay,
        ridge,
        threshold,
        blockSize,
        batchPoints,
        batchClasses,
        innerTolerance,
        seed,
        threads);
  }

  /** η during epoch {@code epoch} (from 0): η·decay^epoch. */
  double rate(long epoch) {
    return learningRate * Math.pow(epochDecay, epoch);
  }

  /** u_i's learning rate during epoch {@code epoch}: η·uEpochDecay^epoch. */
  double uRate(long epoch) {
    return learningRate * Math.pow(uEpochDecay, epoch);
  }
}
