package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.SpecialFunctions;
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
 * Elementwise special functions over a batch of arguments spread over the range where the
 * algorithms use them (utilities within +-10, truncated-normal means within +-10, and so on), so
 * every branch of a piecewise implementation is taken: 1,000 of them (a CAVI row of classes, still
 * in L1) and 100,000 (a whole update, streaming from L2).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class SpecialFunctionsBenchmark {
  @Param({"scalar", "simd", "native"})
  public String backend;

  @Param({"1000", "100000"})
  public int size;

  @Param({
    "EXP",
    "LOG_SIGMOID",
    "NORMAL_LOG_CDF",
    "NORMAL_MILLS_RATIO",
    "TRUNCATED_NORMAL_MEAN_NEGATIVE",
    "TRUNCATED_NORMAL_VARIANCE_NEGATIVE",
    "TRUNCATED_NORMAL_ENTROPY_NEGATIVE",
    "POLYA_GAMMA_MEAN",
    "LAMBERT_W0",
    "WRIGHT_OMEGA"
  })
  public ElementwiseFunction function;

  private double[] x;
  private double[] out;
  private SpecialFunctions functions;

  @Setup
  public void data() {
    functions = ResolvedBackends.select(backend, KernelFamily.SPECIAL_FUNCTIONS).specialFunctions();
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
      default -> {}
    }
    x = new double[size];
    for (int i = 0; i < size; i++) {
      x[i] = lo + (hi - lo) * random.nextDouble();
    }
    out = new double[size];
  }

  /** Time per call of size elements. */
  @Benchmark
  public void apply(Blackhole bh) {
    functions.apply(function, size, x, 0, out, 0);
    bh.consume(out);
  }
}
