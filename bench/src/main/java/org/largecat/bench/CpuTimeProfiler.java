package org.largecat.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time per operation next to JMH's wall-clock score: a JMH profiler (it runs inside the fork)
 * that adds to every iteration of an average-time benchmark the secondary result {@value #LABEL},
 * the score times the share of the iteration's wall time that the benchmark's threads (JMH's
 * {@value #WORKER} threads) spent on a CPU. On a machine shared with other work the wall-clock
 * score also counts the time a worker waited for a core, which changes from fork to fork with the
 * load; this result does not. {@code largecat bench ... -prof org.largecat.bench.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  /** The secondary result's label. */
  public static final String LABEL = "cpu.time/op";

  private static final String WORKER = "-jmh-worker-";

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final Map<Long, Long> startCpu = new HashMap<>();
  private long startWall;

  @Override
  public String getDescription() {
    return "largecat: the benchmark threads' CPU time per operation (average-time mode)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    startCpu.clear();
    workerCpu(startCpu);
    startWall = System.nanoTime();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long wall = System.nanoTime() - startWall;
    if (benchmarkParams.getMode() != Mode.AverageTime || !threads.isThreadCpuTimeSupported()) {
      return List.of();
    }
    Map<Long, Long> endCpu = new HashMap<>();
    workerCpu(endCpu);
    long cpu = 0;
    for (Map.Entry<Long, Long> worker : endCpu.entrySet()) {
      cpu += worker.getValue() - startCpu.getOrDefault(worker.getKey(), 0L);
    }
    Result primary = result.getPrimaryResult();
    return List.of(
        new ScalarResult(
            LABEL, primary.getScore() * cpu / wall, primary.getScoreUnit(), AggregationPolicy.AVG));
  }

  /** Each live worker thread's CPU time so far, by thread id. */
  private void workerCpu(Map<Long, Long> into) {
    for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().contains(WORKER)) {
        long cpu = threads.getThreadCpuTime(info.getThreadId());
        if (cpu >= 0) {
          into.put(info.getThreadId(), cpu);
        }
      }
    }
  }
}
