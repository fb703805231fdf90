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
 * @param averaged whether the model the trainer writes is the average of its iterates rather than
 *     the last one (Polyak and Juditsky 1992): within an epoch the plain mean of the iterate after
 *     every update, across epochs the polynomial-decay average of those means (Shamir and Zhang
 *     2013, weight ∝ e² for epoch e), so early iterates fade. The caller's model holds the average
 *     at the end of every epoch and once the trainer is closed, whether the run's length is fixed
 *     or decided by a stopping rule; the iterate itself stays private to the trainer
 * @param stepPower α of the decreasing schedule: every rate is also multiplied by (1 + e)^(−α) in
 *     epoch e (0 for none); α in (1/2, 1) with averaging is the schedule under which the average
 *     converges at the optimal rate
 * @param uLearningRate η_u, the learning rate of u_i on its own term u_i + e^{−u_i} d_i, before the
 *     schedule (by default η/n, for the one-pair methods η): u_i is stepped once an epoch and its
 *     curvature does not grow with ‖x̃‖², so it may take a larger rate than W. isgd-batch's joint
 *     step gives u_i the rate ηJ/N (η/n when n divides N) and takes an implicit step in u_i alone
 *     for the rest when η_u is larger
 * @param normalisedRate whether W's rate is {@code learningRate}/mean_i ‖x̃_i‖² rather than {@code
 *     learningRate}: the per-pair objective's curvature in W grows with ‖x̃‖², so a rate on this
 *     scale suits data whatever their norms
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
    int threads,
    boolean averaged,
    double stepPower,
    double uLearningRate,
    boolean normalisedRate)
    implements TrainerSpec {

  /**
   * α of the decreasing schedule a run under a stopping rule takes with averaged iterates: in (1/2,
   * 1), where the average converges at the optimal rate.
   */
  public static final double UNDER_RULE_STEP_POWER = 0.6;

  /**
   * The learning rate per unit of mean ‖x̃_i‖² ({@link #normalisedRate}) a run under a stopping
   * rule takes with averaged iterates on {@code classes} classes when none is given. A one-pair
   * step weighs its sampled class by K − 1, so the noise the average must smooth grows with K:
   * 1.5/√K for isgd (at 0.2, right for K = 60, its average sat 1.1% above the optimum from the 37th
   * epoch at K = 200, where 0.1 ended 0.3% above); 1/√K for U-max, whose explicit step is less
   * stable (0.2 drove the objective up from the sixth epoch at K = 100), and at most 0.1 (at K =
   * 20, 0.22 made the held-out log-likelihood of its average fall from the 15th epoch, 2.4% short
   * of the exact fit's, where 0.1 ended 0.1% short); 10 for isgd-batch, whose fully implicit step
   * stays stable at any rate (§4.1's tuning too picked it 10 to 100 times the others') but at 20
   * and K = 100 sat 2.5% above the optimum until the rule stopped it.
   */
  public static double underRuleNormalisedRate(Method method, int classes) {
    return switch (method) {
      case IMPLICIT_SGD_BATCH -> 10;
      case UMAX -> Math.min(0.1, 1 / Math.sqrt(classes));
      default -> 1.5 / Math.sqrt(classes);
    };
  }

  /**
   * u_i's learning rate η_u under a stopping rule with averaged iterates when none is given, for
   * isgd-batch too.
   */
  public static final double UNDER_RULE_U_RATE = 1;

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
    if (!(stepPower >= 0 && stepPower <= 1)
        || !(uLearningRate > 0 && uLearningRate < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "step power "
              + stepPower
              + " must be in [0, 1], u's learning rate "
              + uLearningRate
              + " positive and finite");
    }
  }

  /**
   * The paper's trainer: the last iterate, no decreasing schedule beyond the decays, u_i at the
   * rate W's gives them (η, for isgd-batch η/n), W's rate as given.
   */
  public DoubleSumSpec(
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
    this(
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
        threads,
        false,
        0,
        learningRate / batchPoints,
        false);
  }

  /** Whether {@code method} averages its iterates by default: U-max, isgd and isgd-batch. */
  public static boolean averagesByDefault(Method method) {
    return method == Method.UMAX
        || method == Method.IMPLICIT_SGD
        || method == Method.IMPLICIT_SGD_BATCH;
  }

  /**
   * §4.1's settings for {@code method}, seed 1, all cores: η = {@link
   * TrainerSpec#defaultSgdLearningRate}, ×0.9 per epoch, u_i's rate η/n (decayed as W's for
   * isgd-batch only), μ = 0, δ = 1; for isgd-batch n = m = 5 (App. F.3), else one datapoint and one
   * class; {@value #POINTS_PER_STEP} datapoints per step; inner tolerance 1e-10; iterates averaged
   * for the methods of {@link #averagesByDefault}, no decreasing schedule beyond the decay.
   */
  public static Builder builder(Method method) {
    Builder builder = new Builder(method);
    return method == Method.IMPLICIT_SGD_BATCH ? builder.miniBatch(5, 5) : builder;
  }

  /**
   * A builder holding these settings, the block size among them; u_i's rate left unset when it is
   * its default η/n, so that it follows a new η.
   */
  public Builder toBuilder() {
    Builder builder =
        new Builder(method)
            .learningRate(learningRate)
            .epochDecay(epochDecay)
            .uEpochDecay(uEpochDecay)
            .ridge(ridge)
            .threshold(threshold)
            .blockSize(blockSize)
            .miniBatch(batchPoints, batchClasses)
            .innerTolerance(innerTolerance)
            .seed(seed)
            .threads(threads)
            .averaged(averaged)
            .stepPower(stepPower)
            .normalisedRate(normalisedRate);
    return uLearningRate == learningRate / batchPoints
        ? builder
        : builder.uLearningRate(uLearningRate);
  }

  /**
   * η during epoch {@code epoch} (from 0): η·decay^epoch·(1 + epoch)^(−α), before {@link
   * #normalisedRate}'s division.
   */
  public double rate(long epoch) {
    return learningRate * Math.pow(epochDecay, epoch) * Math.pow(1 + epoch, -stepPower);
  }

  /**
   * u_i's learning rate during epoch {@code epoch}: η_u·uEpochDecay^epoch·(1 + epoch)^(−α), for
   * isgd-batch η_u·epochDecay^epoch·(1 + epoch)^(−α), so that its default η/n stays the rate its
   * joint step gives u_i.
   */
  public double uRate(long epoch) {
    double decay = method == Method.IMPLICIT_SGD_BATCH ? epochDecay : uEpochDecay;
    return uLearningRate * Math.pow(decay, epoch) * Math.pow(1 + epoch, -stepPower);
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
    private boolean averaged;
    private double stepPower;
    private Double uLearningRate;
    private boolean normalisedRate;

    private Builder(Method method) {
      this.method = Objects.requireNonNull(method, "method");
      this.learningRate = TrainerSpec.defaultSgdLearningRate(method);
      this.averaged = averagesByDefault(method);
    }

    /** Whether the model written is the average of the iterates (see {@link #averaged()}). */
    public Builder averaged(boolean averaged) {
      this.averaged = averaged;
      return this;
    }

    /** α of the decreasing schedule (1 + e)^(−α). */
    public Builder stepPower(double stepPower) {
      this.stepPower = stepPower;
      return this;
    }

    /** u_i's learning rate η_u; unset, η/n (η for the one-pair methods). */
    public Builder uLearningRate(double uLearningRate) {
      this.uLearningRate = uLearningRate;
      return this;
    }

    /** Whether W's rate is the learning rate divided by mean_i ‖x̃_i‖². */
    public Builder normalisedRate(boolean normalisedRate) {
      this.normalisedRate = normalisedRate;
      return this;
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
          threads,
          averaged,
          stepPower,
          Objects.requireNonNullElse(uLearningRate, learningRate / batchPoints),
          normalisedRate);
    }
  }
}
