package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.kernel.ElementwiseFunction;
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
 * Elementwise special functions over a batch of n arguments (10^5 by default; exp is also measured
 * over 1,000 with -p n=1000) spread over the range where the algorithms use them (utilities within
 * +-10, truncated-normal means within +-10, and so on), so every branch of a piecewise
 * implementation is taken.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class SpecialFunctionsBenchmark {
  @Param({"EXP", "LOG_SIGMOID", "NORMAL_LOG_CDF", "NORMAL_MILLS_RATIO", "TRUNCATED_NORMAL_MEAN_NEGATIVE",
      "TRUNCATED_NORMAL_VARIANCE_NEGATIVE", "TRUNCATED_NORMAL_ENTROPY_NEGATIVE", "POLYA_GAMMA_MEAN", "LAMBERT_W0",
      "WRIGHT_OMEGA"})
  public ElementwiseFunction function;

  @Param({"100000"})
  public int n;

  private double[] x;
  private double[] out;

  @Setup
  public void data() {
    SplittableRandom random = new SplittableRandom(7);
    double lo = -10;
    double hi = 10;
    switch (function) {
      case LAMBERT_W0 -> {
        lo = -1 / Math.E;
        hi = 100;
      }
      case POLYA_GAMMA_MEAN -> lo = 0;
      case WRIGHT_OMEGA -> hi = 50;
      default -> { }
    }
    x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = lo + (hi - lo) * random.nextDouble();
    }
    out = new double[n];
  }

  /** Time per call of n elements. */
  @Benchmark
  public void apply(BackendState b, Blackhole bh) {
    b.kernels.specialFunctions().apply(function, n, x, 0, out, 0);
    bh.consume(out);
  }
}
