package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.SpecialFunctions;
import org.largecat.kernel.Summation;
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

/**
 * The probit CAVI's pass over a chunk of N x K cells (IbCavi): the sum of log Phi(x) for the ELBO
 * and the truncated-normal mean written over x, either as two arrays then a sum ({@code
 * pairThenSum}) or as {@code sumAndApply}, which a backend may sum without writing log Phi. The
 * cells are 6,000 (a chunk of rows times a block of 64 categories, in L1/L2), from uniform x in [1,
 * 3.5] ("right", where the simulated K = 1,000 fit puts nearly every cell after a few iterations)
 * or in [-10, 10] ("both", nearly every vector with a lane in the left tail).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class ProbitCellsBenchmark {
  private static final int CELLS = 6_000;

  @Param({"scalar", "simd", "native"})
  public String backend;

  @Param({"right", "both"})
  public String range;

  private double[] x;
  private double[] cells;
  private double[] logCdf;
  private SpecialFunctions functions;

  @Setup
  public void data() {
    functions = ResolvedBackends.select(backend, KernelFamily.SPECIAL_FUNCTIONS).specialFunctions();
    double lo = range.equals("right") ? 1 : -10;
    double hi = range.equals("right") ? 3.5 : 10;
    SplittableRandom random = new SplittableRandom(11);
    x = new double[CELLS];
    for (int i = 0; i < CELLS; i++) {
      x[i] = lo + (hi - lo) * random.nextDouble();
    }
    cells = new double[CELLS];
    logCdf = new double[CELLS];
  }

  /**
   * applyPair into a log Phi array and the cells in place, then the array's sum (as IbCavi did
   * before sumAndApply).
   */
  @Benchmark
  public double pairThenSum() {
    System.arraycopy(x, 0, cells, 0, CELLS);
    functions.applyPair(
        ElementwiseFunction.NORMAL_LOG_CDF,
        ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE,
        CELLS,
        cells,
        0,
        logCdf,
        0,
        cells,
        0);
    return Summation.sum(CELLS, logCdf) + cells[CELLS - 1];
  }

  /** sumAndApply: the sum of log Phi, and the cells in place. */
  @Benchmark
  public double sumAndApply() {
    System.arraycopy(x, 0, cells, 0, CELLS);
    double sum =
        functions.sumAndApply(
            ElementwiseFunction.NORMAL_LOG_CDF,
            ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE,
            CELLS,
            cells,
            0,
            cells,
            0);
    return sum + cells[CELLS - 1];
  }
}
