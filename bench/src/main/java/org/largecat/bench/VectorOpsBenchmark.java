package org.largecat.bench;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.VectorOps;
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
 * The O(|S|) inner loop of a sampled softmax step at the SIMD issue's shapes, K = 10⁴ classes and
 * |S| = 100 sampled rows: gather-dot of the rows against a dense x of D = 784 (MNIST-sized) alone,
 * and with log-sum-exp and the scatter-axpy back (the whole step); scatter-axpy alone; gather-dot
 * against a sparse x of D = 5,000 with 50 nonzeros (text features); one float dot product of D =
 * 784; the sum of exp over 1,000 logits (double and float), the exp of 1,000 floats, the
 * log-sum-exp of the |S| logits, the float softmax of a row of 100, 1,000 or 4,000 scores (the
 * sampled set sizes of the factorized step), and the row step of a batch's random rows of a large
 * table.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-modules",
      "jdk.incubator.vector",
      "--enable-native-access=ALL-UNNAMED",
      "-XX:+UseTransparentHugePages"
    })
@State(Scope.Thread)
public class VectorOpsBenchmark {
  static final int CLASSES = 10_000;
  static final int SAMPLED = 100;

  @Param({"scalar", "simd", "native"})
  public String backend;

  private VectorOps ops;

  @Setup
  public void backend() {
    ops = ResolvedBackends.select(backend, KernelFamily.VECTOR_OPS).vectorOps();
  }

  /** K x D weights, |S| sampled rows with their coefficients and logits, and a dense x. */
  @State(Scope.Thread)
  public static class Dense {
    static final int D = 784;
    float[] w;
    float[] x;
    int[] rows;
    float[] coef;
    double[] logits;
    float[] gradient = new float[D];

    @Setup
    public void data() {
      SplittableRandom random = new SplittableRandom(42);
      w = BenchData.gaussianFloats(CLASSES * D, 0.01, random);
      x = BenchData.gaussianFloats(D, 1, random);
      rows = random.ints(SAMPLED, 0, CLASSES).toArray();
      coef = BenchData.gaussianFloats(SAMPLED, 1e-3, random);
      logits = random.doubles(SAMPLED, -20, 20).toArray();
    }
  }

  /** K x D weights with D = 5,000 and a sparse x of 50 nonzeros. */
  @State(Scope.Thread)
  public static class Sparse {
    static final int D = 5_000;
    static final int NONZEROS = 50;
    float[] w;
    int[] rows;
    int[] indices;
    float[] values;
    double[] logits;

    @Setup
    public void data() {
      SplittableRandom random = new SplittableRandom(43);
      w = BenchData.gaussianFloats(CLASSES * D, 0.01, random);
      rows = random.ints(SAMPLED, 0, CLASSES).toArray();
      indices = BenchData.distinctSorted(NONZEROS, D, random);
      values = BenchData.gaussianFloats(NONZEROS, 1, random);
      logits = new double[SAMPLED];
    }
  }

  /**
   * The factorized model's tables at width r: input and output embeddings of K rows, an example's 3
   * input rows with their values, and |S| + 1 output rows with their coefficients.
   */
  @State(Scope.Thread)
  public static class Embedding {
    @Param({"64", "128", "256"})
    public int width;

    static final int NONZEROS = 3;
    float[] inputs;
    float[] outputs;
    int[] features;
    float[] values;
    int[] rows;
    float[] coef;
    float[] h;
    float[] gradient;
    double[] scores = new double[SAMPLED + 1];

    @Setup
    public void data() {
      SplittableRandom random = new SplittableRandom(45);
      inputs = BenchData.gaussianFloats(CLASSES * width, 0.1, random);
      outputs = BenchData.gaussianFloats(CLASSES * width, 0.1, random);
      features = BenchData.distinctSorted(NONZEROS, CLASSES, random);
      values = BenchData.gaussianFloats(NONZEROS, 1, random);
      rows = random.ints(SAMPLED + 1, 0, CLASSES).toArray();
      coef = BenchData.gaussianFloats(SAMPLED + 1, 1e-3, random);
      h = new float[width];
      gradient = new float[width];
    }
  }

  /**
   * Phase two of the factorized step at K = D = 10⁵: a table of 10⁵ rows of the model width with
   * their s, far larger than the caches, and batches of |B|·nnz = 5,000 random rows, a different
   * batch each call (64 batches, so the rows are not the previous call's), each row's gradient and
   * step weights.
   */
  @State(Scope.Thread)
  public static class RowTable {
    static final int ROWS = 100_000;
    static final int BATCH_ROWS = 5_000;
    static final int BLOCK = 32;
    static final int BATCHES = 64;

    @Param({"64", "128", "256"})
    public int width;

    float[] table;
    float[] squares;
    int[][] batches;
    int next;
    float[] gradient;
    float[] fresh = new float[BLOCK];
    float[] keep = new float[BLOCK];

    @Setup
    public void data() {
      SplittableRandom random = new SplittableRandom(47);
      table = BenchData.gaussianFloats(ROWS * width, 0.1, random);
      squares = BenchData.gaussianFloats(ROWS * width, 1e-3, random);
      for (int i = 0; i < squares.length; i++) {
        squares[i] = Math.abs(squares[i]);
      }
      batches = new int[BATCHES][];
      for (int b = 0; b < BATCHES; b++) {
        batches[b] = random.ints(BATCH_ROWS, 0, ROWS).toArray();
      }
      gradient = new float[BLOCK * width];
      Arrays.fill(fresh, 0.1f);
      Arrays.fill(keep, 0.9f);
    }
  }

  /**
   * 1,000 logits spread over [-20, 20], as doubles and as floats, and room for their exponentials.
   */
  @State(Scope.Thread)
  public static class Logits {
    double[] values;
    float[] floats;
    float[] exps;

    @Setup
    public void data() {
      values = new SplittableRandom(44).doubles(1000, -20, 20).toArray();
      floats = new float[values.length];
      for (int i = 0; i < values.length; i++) {
        floats[i] = (float) values[i];
      }
      exps = new float[values.length];
    }
  }

  /** A row of Gaussian float scores of standard deviation 5, and the row the softmax overwrites. */
  @State(Scope.Thread)
  public static class ScoreRow {
    @Param({"100", "1000", "4000"})
    public int length;

    float[] scores;
    float[] row;

    @Setup
    public void data() {
      scores = BenchData.gaussianFloats(length, 5, new SplittableRandom(46));
      row = new float[length];
    }
  }

  @Benchmark
  public double dotFloat(Dense d) {
    return ops.dot(Dense.D, d.x, 0, d.w, 0);
  }

  @Benchmark
  public double sumExp1000(Logits l) {
    return ops.sumExp(l.values.length, l.values, 0, 20);
  }

  @Benchmark
  public double sumExpFloat1000(Logits l) {
    return ops.sumExp(l.floats.length, l.floats, 0, 20f);
  }

  @Benchmark
  public void expFloat1000(Logits l, Blackhole bh) {
    ops.exp(l.floats.length, l.floats, 0, l.exps, 0);
    bh.consume(l.exps);
  }

  /**
   * The softmax works in place, so each call first copies the scores back (the same for every
   * backend).
   */
  @Benchmark
  public double softmax(ScoreRow s) {
    System.arraycopy(s.scores, 0, s.row, 0, s.length);
    return ops.softmax(s.length, s.row, 0);
  }

  @Benchmark
  public void gatherDotDense(Dense d, Blackhole bh) {
    ops.gatherDot(d.w, CLASSES, Dense.D, d.rows, 0, SAMPLED, d.x, 0, d.logits, 0);
    bh.consume(d.logits);
  }

  @Benchmark
  public void gatherDotSparse(Sparse s, Blackhole bh) {
    ops.gatherDotSparse(
        s.w,
        CLASSES,
        Sparse.D,
        s.rows,
        0,
        SAMPLED,
        s.indices,
        s.values,
        0,
        s.indices.length,
        s.logits,
        0);
    bh.consume(s.logits);
  }

  @Benchmark
  public void scatterAxpyDense(Dense d, Blackhole bh) {
    ops.scatterAxpy(d.w, CLASSES, Dense.D, d.rows, 0, SAMPLED, d.coef, 0, d.x, 0);
    bh.consume(d.w);
  }

  /**
   * The transpose: one D-long row summed from |S| rows of W, as the trainers sum a class's gradient
   * row.
   */
  @Benchmark
  public void gatherAxpyDense(Dense d, Blackhole bh) {
    ops.gatherAxpy(d.w, CLASSES, Dense.D, d.rows, 0, SAMPLED, d.coef, 0, d.gradient, 0);
    bh.consume(d.gradient);
  }

  /** h = Σ_j x_j v_j over an example's input rows. */
  @Benchmark
  public void embedInputRows(Embedding e, Blackhole bh) {
    Arrays.fill(e.h, 0f);
    ops.gatherAxpy(
        e.inputs, CLASSES, e.width, e.features, 0, Embedding.NONZEROS, e.values, 0, e.h, 0);
    bh.consume(e.h);
  }

  /** The scores of the label and |S| sampled output rows against h. */
  @Benchmark
  public void scoreOutputRows(Embedding e, Blackhole bh) {
    ops.gatherDot(e.outputs, CLASSES, e.width, e.rows, 0, SAMPLED + 1, e.h, 0, e.scores, 0);
    bh.consume(e.scores);
  }

  /** ∂L/∂h = Σ_i c_i u_{s_i}. */
  @Benchmark
  public void embeddingGradient(Embedding e, Blackhole bh) {
    ops.gatherAxpy(e.outputs, CLASSES, e.width, e.rows, 0, SAMPLED + 1, e.coef, 0, e.gradient, 0);
    bh.consume(e.gradient);
  }

  /** u_{s_i} += c_i h, the per-example form of the output rows' update. */
  @Benchmark
  public void updateOutputRows(Embedding e, Blackhole bh) {
    ops.scatterAxpy(e.outputs, CLASSES, e.width, e.rows, 0, SAMPLED + 1, e.coef, 0, e.h, 0);
    bh.consume(e.outputs);
  }

  /**
   * The adaptive step of a batch's 5,000 random rows of a 10⁵-row table, 32 rows a call as the
   * trainers' phase two makes them (the gradients are zero after the first call, which leaves the
   * work the same: the prior's pull keeps every element moving).
   */
  @Benchmark
  public void rowStepRandomRows(RowTable t, Blackhole bh) {
    int[] rows = t.batches[t.next++ % RowTable.BATCHES];
    for (int b = 0; b < RowTable.BATCH_ROWS; b += RowTable.BLOCK) {
      ops.rowStep(
          t.table,
          t.squares,
          RowTable.ROWS,
          t.width,
          rows,
          b,
          Math.min(RowTable.BLOCK, RowTable.BATCH_ROWS - b),
          t.gradient,
          0,
          t.fresh,
          t.keep,
          0,
          0.02f,
          1f,
          1e-4f);
    }
    bh.consume(t.table);
  }

  @Benchmark
  public double logSumExp(Dense d) {
    return ops.logSumExp(SAMPLED, d.logits, 0);
  }

  /**
   * One whole sampled step: gather-dot the logits, normalise, scatter-axpy the update into the
   * sampled rows.
   */
  @Benchmark
  public void sampledStepDense(Dense d, Blackhole bh) {
    ops.gatherDot(d.w, CLASSES, Dense.D, d.rows, 0, SAMPLED, d.x, 0, d.logits, 0);
    double lse = ops.logSumExp(SAMPLED, d.logits, 0);
    for (int i = 0; i < SAMPLED; i++) {
      d.coef[i] = (float) (-1e-3 * Math.exp(d.logits[i] - lse));
    }
    ops.scatterAxpy(d.w, CLASSES, Dense.D, d.rows, 0, SAMPLED, d.coef, 0, d.x, 0);
    bh.consume(d.w);
  }
}
