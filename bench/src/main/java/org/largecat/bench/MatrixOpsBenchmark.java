package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.MatrixOps;
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
 * The matrix kernels of IB-CAVI: X^T X (syrk), its Cholesky factor and solve, and an n x n gemm.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class MatrixOpsBenchmark {
  @Param({"scalar", "simd", "blas", "jblas"})
  public String backend;

  @Param({"256"})
  public int n;

  private MatrixOps ops;

  private double[] a;
  private double[] b;
  private double[] c;
  private double[] spd;
  private double[] factor;
  private double[] rhs;

  @Setup
  public void data() {
    ops = ResolvedBackends.select(backend, KernelFamily.MATRIX_OPS).matrixOps();
    SplittableRandom random = new SplittableRandom(3);
    a = random.doubles((long) n * n, -1, 1).toArray();
    b = random.doubles((long) n * n, -1, 1).toArray();
    c = new double[n * n];
    spd = new double[n * n];
    ops.syrk(true, n, n, 1, a, 0, n, 0, spd, 0, n);
    for (int i = 0; i < n; i++) {
      spd[i * n + i] += n;
    }
    factor = new double[n * n];
    rhs = random.doubles((long) n * 8, -1, 1).toArray();
  }

  @Benchmark
  public void gemm(Blackhole bh) {
    ops.gemm(false, false, n, n, n, 1, a, 0, n, b, 0, n, 0, c, 0, n);
    bh.consume(c);
  }

  @Benchmark
  public void syrk(Blackhole bh) {
    ops.syrk(true, n, n, 1, a, 0, n, 0, c, 0, n);
    bh.consume(c);
  }

  /** Factor a fresh copy, then solve for 8 right-hand sides. */
  @Benchmark
  public void choleskyFactorAndSolve(Blackhole bh) {
    System.arraycopy(spd, 0, factor, 0, spd.length);
    ops.choleskyFactor(n, factor, 0, n);
    double[] x = rhs.clone();
    ops.choleskySolve(n, 8, factor, 0, n, x, 0, 8);
    bh.consume(x);
  }
}
