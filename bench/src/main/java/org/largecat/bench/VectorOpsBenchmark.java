package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * The O(|S|) inner loop of a sampled softmax step: gather-dot of |S| rows of a K x D weight matrix
 * against x (dense, or sparse with nnz nonzeros), log-sum-exp of the logits, scatter-axpy back.
 * K = 10^4 and |S| = 100 as in DESIGN.md's measured facts; D = 784 (dense, MNIST-sized) and
 * D = 5,000 (sparse text features). Also the single float dot product of length D and the sum of
 * exp over 1,000 logits.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class VectorOpsBenchmark {
  private static final int CLASSES = 10_000;
  private static final int SAMPLED = 100;

  @Param({"784", "5000"})
  public int d;

  @Param({"50"})
  public int nnz;

  private float[] w;
  private float[] x;
  private int[] rows;
  private float[] coef;
  private int[] indices;
  private float[] values;
  private double[] logits;
  private double[] manyLogits;

  @Setup
  public void data() {
    SplittableRandom random = new SplittableRandom(42);
    w = new float[CLASSES * d];
    for (int i = 0; i < w.length; i++) {
      w[i] = (float) random.nextGaussian() * 0.01f;
    }
    x = new float[d];
    for (int i = 0; i < d; i++) {
      x[i] = (float) random.nextDouble();
    }
    rows = random.ints(SAMPLED, 0, CLASSES).toArray();
    coef = new float[SAMPLED];
    for (int i = 0; i < SAMPLED; i++) {
      coef[i] = (float) (1e-3 * random.nextGaussian());
    }
    indices = random.ints(0, d).distinct().limit(Math.min(nnz, d)).sorted().toArray();
    values = new float[indices.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = (float) random.nextDouble();
    }
    logits = new double[SAMPLED];
    manyLogits = random.doubles(1000, -20, 20).toArray();
  }

  @Benchmark
  public double dotFloat(BackendState b) {
    return b.kernels.vectorOps().dot(d, x, 0, w, 0);
  }

  @Benchmark
  public double sumExp1000(BackendState b) {
    return b.kernels.vectorOps().sumExp(manyLogits.length, manyLogits, 0, 20);
  }

  @Benchmark
  public void gatherDotDense(BackendState b, Blackhole bh) {
    b.kernels.vectorOps().gatherDot(w, CLASSES, d, rows, 0, SAMPLED, x, 0, logits, 0);
    bh.consume(logits);
  }

  @Benchmark
  public void gatherDotSparse(BackendState b, Blackhole bh) {
    b.kernels.vectorOps().gatherDotSparse(w, CLASSES, d, rows, 0, SAMPLED, indices, values, 0, indices.length, logits, 0);
    bh.consume(logits);
  }

  @Benchmark
  public void scatterAxpyDense(BackendState b, Blackhole bh) {
    b.kernels.vectorOps().scatterAxpy(w, CLASSES, d, rows, 0, SAMPLED, coef, 0, x, 0);
    bh.consume(w);
  }

  @Benchmark
  public double logSumExp(BackendState b) {
    return b.kernels.vectorOps().logSumExp(SAMPLED, logits, 0);
  }

  /** One whole sampled step: logits, normaliser, update of the sampled rows. */
  @Benchmark
  public void sampledStepDense(BackendState b, Blackhole bh) {
    var ops = b.kernels.vectorOps();
    ops.gatherDot(w, CLASSES, d, rows, 0, SAMPLED, x, 0, logits, 0);
    double lse = ops.logSumExp(SAMPLED, logits, 0);
    for (int i = 0; i < SAMPLED; i++) {
      coef[i] = (float) (-1e-3 * Math.exp(logits[i] - lse));
    }
    ops.scatterAxpy(w, CLASSES, d, rows, 0, SAMPLED, coef, 0, x, 0);
    bh.consume(w);
  }
}
