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
 * 100, K = 1000), an (M x N)(N x K) product with a long inner dimension, X read transposed. Also,
 * not run by default, the factorized trainer's shared step for one thread's chunk of 250 examples
 * at r = 128 and |S| = S (FactorizedStepBenchmark): {@code scores:S}, H U_S^T (250 x 128 times (S x
 * 128)^T); {@code dH:S}, C U_S (250 x S times S x 128); {@code dU:S}, C^T H ((250 x S)^T times 250
 * x 128). Sampled, so the table shows medians (p0.50). The BLAS libraries take their thread count
 * from OPENBLAS_NUM_THREADS when they load: bench/gemm-vs-c.sh runs this with 1 and 2, next to the
 * same products called from C.
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
  /** The factorized step's shapes: a thread's chunk of a 500-example batch, and r. */
  private static final int CHUNK = 250;

  private static final int RANK = 128;

  @Param({"scalar", "simd", "blas", "jblas"})
  public String backend;

  @Param({"square", "xtEz"})
  public String shape;

  private boolean transA;
  private boolean transB;
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
    String[] named = shape.split(":", 2);
    int sampled = named.length == 2 ? sampledClasses(named[1]) : 0;
    switch (named.length == 2 ? named[0] + ":" : shape) {
      case "square" -> dimensions(false, false, 1000, 1000, 1000);
      case "xtEz" -> dimensions(true, false, 100, 1000, 100_000);
      case "scores:" -> dimensions(false, true, CHUNK, sampled, RANK);
      case "dH:" -> dimensions(false, false, CHUNK, RANK, sampled);
      case "dU:" -> dimensions(true, false, sampled, RANK, CHUNK);
      default ->
          throw new IllegalArgumentException(
              "unknown shape " + shape + "; known: square, xtEz, scores:S, dH:S, dU:S");
    }
    SplittableRandom random = new SplittableRandom(11);
    a = random.doubles((long) m * k, -1, 1).toArray();
    b = random.doubles((long) k * n, -1, 1).toArray();
    c = new double[m * n];
    af = floats(a);
    bf = floats(b);
    cf = new float[m * n];
    System.out.printf(
        "%n[largecat] %s: C (%d x %d) = %s (%d x %d) %s (%d x %d), %.4f GFLOP per product%n",
        shape, m, n, transA ? "A^T" : "A", m, k, transB ? "B^T" : "B", k, n, 2e-9 * m * n * k);
  }

  private static int sampledClasses(String text) {
    try {
      int sampled = Integer.parseInt(text);
      if (sampled >= 1) {
        return sampled;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("|S| in shape must be a positive integer, got " + text);
  }

  private void dimensions(boolean transA, boolean transB, int m, int n, int k) {
    this.transA = transA;
    this.transB = transB;
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
    ops.gemm(transA, transB, m, n, k, 1, a, 0, transA ? m : k, b, 0, transB ? k : n, 0, c, 0, n);
    bh.consume(c);
  }

  @Benchmark
  public void sgemm(Blackhole bh) {
    ops.gemm(
        transA, transB, m, n, k, 1f, af, 0, transA ? m : k, bf, 0, transB ? k : n, 0f, cf, 0, n);
    bh.consume(cf);
  }
}
