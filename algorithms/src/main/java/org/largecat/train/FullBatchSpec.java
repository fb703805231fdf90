package org.largecat.train;

import java.util.Objects;

/**
 * Settings of a run of the full-batch solver ({@code org.largecat.train.fullbatch}), the method
 * {@link Method#EXACT_SOFTMAX}.
 *
 * @param priorVariance 0 for maximum likelihood, or σ² &gt; 0 of a N(0, σ²) prior on every weight
 *     and bias (MAP)
 * @param threads worker threads (≥ 1); the result does not depend on them
 * @param lbfgs the minimiser's memory and stopping test
 */
public record FullBatchSpec(double priorVariance, int threads, LbfgsSettings lbfgs)
    implements TrainerSpec {

  public FullBatchSpec {
    Objects.requireNonNull(lbfgs, "lbfgs");
    if (!(priorVariance >= 0 && priorVariance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "priorVariance = " + priorVariance + " must be finite and >= 0");
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads = " + threads + " must be >= 1");
    }
  }

  @Override
  public Method method() {
    return Method.EXACT_SOFTMAX;
  }

  /**
   * Maximum likelihood on all cores with the {@link #defaultLbfgs} of D = {@code columns} features
   * and K = {@code classes} classes.
   */
  public static Builder builder(int columns, int classes) {
    return new Builder(defaultLbfgs(columns, classes));
  }

  /**
   * {@link LbfgsSettings#DEFAULT}'s stopping test with the history {@link #history} gives a model
   * of D = {@code columns} features and K = {@code classes} classes.
   */
  public static LbfgsSettings defaultLbfgs(int columns, int classes) {
    return LbfgsSettings.DEFAULT.withHistory(history(columns, classes));
  }

  /** The most bytes of (s, y) pairs {@link #history} keeps. */
  private static final long HISTORY_BYTES = 256L << 20;

  /** The fewest and most pairs {@link #history} keeps. */
  private static final int FEWEST_PAIRS = 10;

  private static final int MOST_PAIRS = 100;

  /**
   * The (s, y) pairs L-BFGS keeps for a model of (D + 1) K parameters: as many as fit in 256 MB,
   * from 10 to 100. More pairs take fewer passes where the curvature differs much between
   * directions (the Hessian of a softmax with a weak prior), at a cost per iteration of 4m (D + 1)
   * K flops against a pass's 4N (D + 1) K; the budget keeps a large model's state to 26 vectors.
   */
  public static int history(int columns, int classes) {
    double pairBytes = 2.0 * Double.BYTES * (columns + 1.0) * classes;
    return (int) Math.max(FEWEST_PAIRS, Math.min(MOST_PAIRS, HISTORY_BYTES / pairBytes));
  }

  /** A builder holding these settings. */
  public Builder toBuilder() {
    return new Builder(lbfgs).priorVariance(priorVariance).threads(threads);
  }

  /** Settings of a {@link FullBatchSpec}; {@link #build} checks them. */
  public static final class Builder {
    private double priorVariance;
    private int threads = Runtime.getRuntime().availableProcessors();
    private LbfgsSettings lbfgs;

    private Builder(LbfgsSettings lbfgs) {
      this.lbfgs = lbfgs;
    }

    public Builder priorVariance(double priorVariance) {
      this.priorVariance = priorVariance;
      return this;
    }

    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    public Builder lbfgs(LbfgsSettings lbfgs) {
      this.lbfgs = lbfgs;
      return this;
    }

    /**
     * @throws IllegalArgumentException when a setting is out of its range
     */
    public FullBatchSpec build() {
      return new FullBatchSpec(priorVariance, threads, lbfgs);
    }
  }
}
