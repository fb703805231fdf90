package org.largecat.bench;

import java.util.Collection;
import java.util.List;
import org.largecat.kernel.Kernels;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Stores the backends a fork actually ran with its result: a JMH profiler (it runs inside the fork)
 * that adds to every iteration one secondary result whose label is {@link #LABEL_PREFIX} followed
 * by the backend of each family, e.g. {@code backends vector-ops=native special-functions=simd
 * implicit-updates=simd matrix-ops=blas}, with score 1. The label is what {@link ResolvedBackends}
 * resolved in this fork, not what was asked for; JMH writes it under {@code secondaryMetrics} in
 * {@code -rf json} results. {@code largecat bench} always adds it ({@code -prof
 * org.largecat.bench.BackendRecorder} does with plain JMH).
 */
public final class BackendRecorder implements InternalProfiler {
  /** How the secondary result's label starts. */
  public static final String LABEL_PREFIX = "backends ";

  /**
   * The label for these kernels: the prefix, then family=backend pairs separated by spaces (JMH's
   * JSON writer breaks lines after every comma, even inside strings).
   */
  static String label(Kernels kernels) {
    return LABEL_PREFIX + kernels.describeChoice().replace(", ", " ");
  }

  @Override
  public String getDescription() {
    return "largecat: the backend of each kernel family this fork resolved to, as a secondary result";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {}

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    Kernels kernels = ResolvedBackends.selected();
    if (kernels == null) {
      return List
          .of(); // the setup failed (its exception says why), or the benchmark selects no backend
    }
    return List.of(new ScalarResult(label(kernels), 1, "resolved", AggregationPolicy.MAX));
  }
}
