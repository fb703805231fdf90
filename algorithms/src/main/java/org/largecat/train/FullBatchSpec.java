package org.largecat.train;

import java.util.Objects;
import org.largecat.train.fullbatch.FullBatchSoftmax;
import org.largecat.train.fullbatch.LbfgsSettings;

/**
 * Settings of a {@link FullBatchSoftmax} run, the method {@link Method#EXACT_SOFTMAX}.
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
   * {@link LbfgsSettings#DEFAULT}'s stopping test with the history {@link FullBatchSoftmax#history}
   * gives a model of D = {@code columns} features and K = {@code classes} classes.
   */
  public static LbfgsSettings defaultLbfgs(int columns, int classes) {
    return LbfgsSettings.DEFAULT.withHistory(FullBatchSoftmax.history(columns, classes));
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
