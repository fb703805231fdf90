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
 * dgemm and sgemm at two shapes: {@code square}, 1000 x 1000 times 1000 x 1000; and {@code xtEz},
 * IB-CAVI's X^T E[Z] with X the N x M covariates and E[Z] the N x K latent means (N = 10^5, M =
 * 100, K = 1000), an (M x N)(N x K) product with a long inner dimension, X read transposed.
 * Sampled, so the table shows medians (p0.50). The BLAS libraries take their thread count from
 * OPENBLAS_NUM_THREADS when they load: bench/gemm-vs-c.sh runs this with 1 and 2, next to the same
 * products called from C.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-modules",
      "jdk.incubator.vector",
      "--enable-native-access=ALL-UNNAMED",
      "-Xmx6g"
    })
@State(Scope.Benchmark)
public class GemmBenchmark {
  @Param({"scalar", "simd", "blas", "jblas"})
  public String backend;

  @Param({"square", "xtEz"})
  public String shape;

  private boolean transA;
  private int m;
  private int n;
  private int k;
  private double[] a;
  private double[] b;
  private double[] c;
  private float[] af;
  private float[] bf;
  private float[] cf;
  private MatrixOps ops;

  @Setup
  public void data() {
    ops = ResolvedBackends.select(backend, KernelFamily.MATRIX_OPS).matrixOps();
    switch (shape) {
      case "square" -> dimensions(false, 1000, 1000, 1000);
      case "xtEz" -> dimensions(true, 100, 1000, 100_000);
      default ->
          throw new IllegalArgumentException("unknown shape " + shape + "; known: square, xtEz");
    }
    SplittableRandom random = new SplittableRandom(11);
    a = random.doubles((long) m * k, -1, 1).toArray();
    b = random.doubles((long) k * n, -1, 1).toArray();
    c = new double[m * n];
    af = floats(a);
    bf = floats(b);
    cf = new float[m * n];
    System.out.printf(
        "%n[largecat] %s: C (%d x %d) = %s (%d x %d) B (%d x %d), %.1f GFLOP per product%n",
        shape, m, n, transA ? "A^T" : "A", m, k, k, n, 2e-9 * m * n * k);
  }

  private void dimensions(boolean transA, int m, int n, int k) {
    this.transA = transA;
    this.m = m;
    this.n = n;
    this.k = k;
  }

  private static float[] floats(double[] v) {
    float[] r = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = (float) v[i];
    }
    return r;
  }

  @Benchmark
  public void dgemm(Blackhole bh) {
    ops.gemm(transA, false, m, n, k, 1, a, 0, transA ? m : k, b, 0, n, 0, c, 0, n);
    bh.consume(c);
  }

  @Benchmark
  public void sgemm(Blackhole bh) {
    ops.gemm(transA, false, m, n, k, 1f, af, 0, transA ? m : k, bf, 0, n, 0f, cf, 0, n);
    bh.consume(cf);
  }
}
