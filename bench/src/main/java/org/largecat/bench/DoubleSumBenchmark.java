package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.doublesum.DoubleSumOptions;
import org.largecat.doublesum.DoubleSumTrainers;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.Method;
import org.largecat.train.Trainer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One iteration (one datapoint, one class) of Implicit SGD against one of vanilla SGD on the
 * double-sum (unbiased-scalable-softmax Proposition 4: "roughly the same speed"), on one thread:
 * D = 784 dense, and D = 5,000 sparse with 50 nonzeros per row; N = 10⁴, K = 10³, unit-norm rows.
 * Each invocation is one trainer step of {@value #PAIRS} pairs, so the score is time per iteration.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class DoubleSumBenchmark {
  static final int PAIRS = DoubleSumOptions.POINTS_PER_STEP;
  private static final int ROWS = 10_000;
  private static final int CLASSES = 1_000;

  @Param({"dense-784", "sparse-5000"})
  public String shape;

  @Param({"sgd", "isgd"})
  public String method;

  private Trainer trainer;

  @Setup(Level.Trial)
  public void prepare(BackendState backend) {
    SplittableRandom random = new SplittableRandom(17);
    Features x = shape.equals("dense-784") ? dense(784, random) : sparse(5_000, 50, random);
    int[] labels = new int[ROWS];
    for (int n = 0; n < ROWS; n++) {
      labels[n] = random.nextInt(CLASSES);
    }
    Dataset data = new Dataset(x, labels, CLASSES);
    Method m = Method.byLabel(method);
    // A small learning rate keeps vanilla SGD finite for the whole run; the work per pair does not depend on it.
    DoubleSumOptions options = new DoubleSumOptions(m, 1e-4, 0.9, 1, 0, 1, PAIRS, 1, 1, 1e-10, 1, 1);
    trainer = DoubleSumTrainers.create(data, LinearModel.zeros(Link.SOFTMAX, CLASSES, x.columns()), options, backend.kernels);
  }

  private static DenseFeatures dense(int columns, SplittableRandom random) {
    float[] values = new float[ROWS * columns];
    for (int n = 0; n < ROWS; n++) {
      double norm2 = 0;
      for (int j = 0; j < columns; j++) {
        values[n * columns + j] = (float) random.nextGaussian();
        norm2 += values[n * columns + j] * values[n * columns + j];
      }
      float scale = (float) (1 / Math.sqrt(norm2));
      for (int j = 0; j < columns; j++) {
        values[n * columns + j] *= scale;
      }
    }
    return new DenseFeatures(ROWS, columns, values);
  }

  private static SparseFeatures sparse(int columns, int perRow, SplittableRandom random) {
    int[] indptr = new int[ROWS + 1];
    int[] indices = new int[ROWS * perRow];
    float[] values = new float[ROWS * perRow];
    for (int n = 0; n < ROWS; n++) {
      indptr[n + 1] = (n + 1) * perRow;
      int[] picked = random.ints(0, columns).distinct().limit(perRow).sorted().toArray();
      for (int j = 0; j < perRow; j++) {
        indices[n * perRow + j] = picked[j];
        values[n * perRow + j] = (float) (1 / Math.sqrt(perRow));
      }
    }
    return new SparseFeatures(ROWS, columns, indptr, indices, values);
  }

  /** One trainer step: {@value #PAIRS} iterations, each one datapoint and one class. */
  @Benchmark
  @OperationsPerInvocation(PAIRS)
  public double iteration() {
    return trainer.step();
  }

  @TearDown(Level.Trial)
  public void close() {
    trainer.close();
  }
}
