package org.largecat.train.fullbatch;

import java.util.Objects;

/**
 * Settings of a {@link FullBatchSoftmax} run.
 *
 * @param priorVariance 0 for maximum likelihood, or σ² &gt; 0 of a N(0, σ²) prior on every weight
 *     and bias (MAP)
 * @param threads worker threads (≥ 1); the result does not depend on them
 * @param lbfgs the minimiser's memory and stopping test
 */
public record FullBatchOptions(double priorVariance, int threads, LbfgsSettings lbfgs) {

  public FullBatchOptions {
    Objects.requireNonNull(lbfgs, "lbfgs");
    if (!(priorVariance >= 0 && priorVariance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "priorVariance = " + priorVariance + " must be finite and >= 0");
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads = " + threads + " must be >= 1");
    }
  }

  /**
   * Maximum likelihood on all cores, {@link LbfgsSettings#DEFAULT}'s stopping test with the history
   * {@link FullBatchSoftmax#history} gives a model of D = {@code columns} features and K = {@code
   * classes} classes.
   */
  public static FullBatchOptions defaults(int columns, int classes) {
    return new FullBatchOptions(
        0,
        Runtime.getRuntime().availableProcessors(),
        LbfgsSettings.DEFAULT.withHistory(FullBatchSoftmax.history(columns, classes)));
  }

  public FullBatchOptions withPriorVariance(double priorVariance) {
    return new FullBatchOptions(priorVariance, threads, lbfgs);
  }

  public FullBatchOptions withThreads(int threads) {
    return new FullBatchOptions(priorVariance, threads, lbfgs);
  }

  public FullBatchOptions withLbfgs(LbfgsSettings lbfgs) {
    return new FullBatchOptions(priorVariance, threads, lbfgs);
  }
}
