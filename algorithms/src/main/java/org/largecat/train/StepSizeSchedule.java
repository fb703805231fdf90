package org.largecat.train;

import java.io.Serializable;

/**
 * How the global step of a sampled-bound trainer turns the mini-batch gradient into a weight
 * change.
 */
public sealed interface StepSizeSchedule extends Serializable {

  /** The adaptive schedule with the A&R paper's values. */
  Adaptive PAPER = new Adaptive(0.02, 0.9, 2000, 0.1);

  /**
   * The adaptive schedule under a {@link StoppingRule}: a constant ρ₀ = 0.05 (no decay, power 0),
   * which the rule divides on plateaus. It reaches the optimum in far fewer epochs than the paper's
   * t^(−1/2) decay, which has all but stopped by the time the noise of a larger step would matter.
   */
  Adaptive UNDER_RULE = new Adaptive(0.05, 1, 2000, 0.1, 0);

  /**
   * The weight of the new g² in s for the factorized model, Adam's 1 − β₂. With the paper's 0.1, s
   * forgets within about ten iterations, while an output row gets its label's gradient only about
   * once every K/|B| iterations: the step g/(1 + √s) then shrinks that rare large gradient and
   * enlarges the frequent small ones of the sampled classes, so the biases drift apart without
   * bound, and each coordinate moves by about ρ₀ per iteration, which the product of the two tables
   * turns into scores that overshoot by tens (at K = 10⁴ the bound fell to −10⁸⁹ in an epoch). A
   * memory of a thousand iterations keeps s nearly constant between a row's label gradients.
   */
  double FACTORIZED_SMOOTHING = 0.001;

  /**
   * {@link #UNDER_RULE} for the factorized model: {@link #FACTORIZED_SMOOTHING}, and the paper's ρ₀
   * = 0.02, since a step of ρ₀ = 0.05 in both tables still made the scores overshoot at K = 10⁴.
   */
  Adaptive FACTORIZED_UNDER_RULE = new Adaptive(0.02, 1, 2000, FACTORIZED_SMOOTHING, 0);

  /**
   * The adaptive schedule a run takes by default: the paper's when its length is fixed, else
   * constant under the stopping rule ({@link #UNDER_RULE}); the factorized model's keeps s for
   * longer ({@link #FACTORIZED_SMOOTHING}) and under the rule starts from ρ₀ = 0.02.
   */
  static Adaptive adaptive(boolean factorized, boolean fixedLength) {
    if (!factorized) {
      return fixedLength ? PAPER : UNDER_RULE;
    }
    return fixedLength ? PAPER.withSmoothing(FACTORIZED_SMOOTHING) : FACTORIZED_UNDER_RULE;
  }

  /**
   * The adaptive step size of A&R §4 (Kucukelbir et al. 2017) on the gradient of the whole-data
   * bound (the mini-batch sum scaled by N/|B|): per coordinate, ρ(t) = ρ₀·decay^⌊t/every⌋ ·
   * t^(−power+1e−16) / (1 + √s(t)), s(t) = smoothing·g² + (1 − smoothing)·s(t−1), with s(1) = g² at
   * a coordinate's first gradient.
   *
   * @param rho0 ρ₀ (paper: 0.02)
   * @param decay the factor applied to ρ₀ every {@code every} iterations (paper: 0.9)
   * @param every iterations between decays (paper: 2000)
   * @param smoothing the weight of the new g² in s (paper: 0.1)
   * @param power the decay exponent of t (paper: 1/2; 0 for a constant ρ₀ whose only reductions are
   *     a {@link StoppingRule}'s)
   */
  record Adaptive(double rho0, double decay, int every, double smoothing, double power)
      implements StepSizeSchedule {
    public Adaptive {
      if (!(rho0 > 0 && rho0 < Double.POSITIVE_INFINITY)
          || !(decay > 0 && decay <= 1)
          || every < 1
          || !(smoothing > 0 && smoothing <= 1)
          || !(power >= 0 && power <= 1)) {
        throw new IllegalArgumentException(
            "step size: rho0 = "
                + rho0
                + " must be positive, decay = "
                + decay
                + " in (0, 1], every = "
                + every
                + " >= 1, smoothing = "
                + smoothing
                + " in (0, 1], power = "
                + power
                + " in [0, 1]");
      }
    }

    /** The paper's schedule (power 1/2) with these values. */
    public Adaptive(double rho0, double decay, int every, double smoothing) {
      this(rho0, decay, every, smoothing, 0.5);
    }

    /** This schedule with {@code rho0} in place of its ρ₀. */
    public Adaptive withRho0(double rho0) {
      return new Adaptive(rho0, decay, every, smoothing, power);
    }

    /** This schedule with {@code smoothing} in place of its weight of the new g². */
    public Adaptive withSmoothing(double smoothing) {
      return new Adaptive(rho0, decay, every, smoothing, power);
    }

    /**
     * ρ₀·decay^⌊t/every⌋·t^(−power+1e−16): the rate before the per-coordinate factor 1/(1 + √s).
     */
    public double rate(long t) {
      return rho0 * Math.pow(decay, t / every) * Math.pow(t, -power + 1e-16);
    }
  }

  /**
   * Plain SGD on the mean per-example objective (the mini-batch sum divided by |B|), with the
   * learning rate multiplied by {@code epochDecay} after every epoch (unbiased-scalable-softmax
   * §4.1: 0.9).
   */
  record Sgd(double learningRate, double epochDecay) implements StepSizeSchedule {
    public Sgd {
      if (!(learningRate > 0 && learningRate < Double.POSITIVE_INFINITY)
          || !(epochDecay > 0 && epochDecay <= 1)) {
        throw new IllegalArgumentException(
            "SGD: learningRate = "
                + learningRate
                + " must be positive and finite, epochDecay = "
                + epochDecay
                + " in (0, 1]");
      }
    }

    /** The learning rate during epoch {@code epoch} (from 0). */
    public double rate(long epoch) {
      return learningRate * Math.pow(epochDecay, epoch);
    }
  }
}
