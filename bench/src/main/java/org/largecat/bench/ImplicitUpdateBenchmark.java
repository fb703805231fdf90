package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.kernel.ImplicitUpdates;
import org.largecat.kernel.KernelFamily;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The Implicit SGD single-class update (Fagan and Iyengar, App. F.1) over a batch of 1024
 * independent problems with z and u spread as in training (N = 10^5, K = 10^4, eta = 0.1).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class ImplicitUpdateBenchmark {
  private static final int N = 1024;

  @Param({"scalar", "simd", "native"})
  public String backend;

  private ImplicitUpdates updates;
  private final double[] z = new double[N];
  private final double[] uOld = new double[N];
  private final double[] xNorm2 = new double[N];
  private final double[] uNew = new double[N];
  private final double[] step = new double[N];

  @Setup
  public void data() {
    updates = ResolvedBackends.select(backend, KernelFamily.IMPLICIT_UPDATES).implicitUpdates();
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < N; i++) {
      z[i] = 10 * random.nextGaussian();
      uOld[i] = 10 * random.nextDouble();
      xNorm2[i] = 1 + 100 * random.nextDouble();
    }
  }

  /** Time per call of 1024 problems. */
  @Benchmark
  public void softmaxSingleClass(Blackhole bh) {
    updates.softmaxSingleClass(N, z, 0, uOld, 0, xNorm2, 0, 0.1, 100_000, 10_000, uNew, 0, step, 0);
    bh.consume(uNew);
    bh.consume(step);
  }
}
