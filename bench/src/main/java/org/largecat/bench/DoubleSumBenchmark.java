package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.data.SyntheticData;
import org.largecat.fit.Trainers;
import org.largecat.model.LinearModel;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Method;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerSpec;
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
 * The double-sum trainers (unbiased-scalable-softmax): vanilla SGD, U-max, Implicit SGD one pair or
 * mini-batch (n = m = 5, App. F.3), U-max on Raman et al.'s Eq. 8, on one thread, as the paper's
 * Proposition 4 compares them ("roughly the same speed" for SGD and Implicit SGD): D = 784 dense,
 * and D = 5,000 sparse with 50 nonzeros per row, N = 10⁴, K = 10³, unit-norm rows, at η = 10⁻⁴; and
 * {@code quick-k50}, the problem of {@code largecat reproduce double-sum --quick} (generated linear
 * softmax, N = 5,000, D = 20, K = 50) at each method's default η, where the mini-batch step's inner
 * Newton solve rather than the rows' dot products is the work. η is not decayed, so every measured
 * step does the same work (isgd-batch's inner solve depends on η). Each invocation is one trainer
 * step over {@value #POINTS} datapoints, so the score is time per datapoint (one iteration of a
 * one-pair method, a fifth of a mini-batch).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class DoubleSumBenchmark {
  static final int POINTS = DoubleSumSpec.POINTS_PER_STEP;
  private static final int ROWS = 10_000;
  private static final int CLASSES = 1_000;
  private static final double LEARNING_RATE = 1e-4;

  @Param({"auto"})
  public String backend;

  @Param({"dense-784", "sparse-5000", "quick-k50"})
  public String shape;

  @Param({"sgd", "umax", "isgd", "isgd-batch", "umax-raman"})
  public String method;

  private Trainer trainer;

  @Setup(Level.Trial)
  public void prepare() {
    var kernels = ResolvedBackends.select(backend, null);
    Method chosen = Method.byLabel(method);
    Dataset data =
        switch (shape) {
          case "dense-784" -> BenchData.dataset(ROWS, 784, 784, CLASSES, new SplittableRandom(17));
          case "sparse-5000" ->
              BenchData.dataset(ROWS, 5_000, 50, CLASSES, new SplittableRandom(17));
          case "quick-k50" ->
              Preprocessing.unitRows(SyntheticData.linearSoftmax(5_000, 20, 50, 0.3, 7).data());
          default -> throw new IllegalArgumentException("unknown shape " + shape);
        };
    // A small learning rate keeps vanilla SGD finite for the whole run on the large shapes.
    double rate =
        shape.equals("quick-k50") ? TrainerSpec.defaultSgdLearningRate(chosen) : LEARNING_RATE;
    DoubleSumSpec options =
        DoubleSumSpec.builder(chosen).threads(1).learningRate(rate).epochDecay(1).build();
    trainer =
        Trainers.create(
            data,
            LinearModel.zeros(options.method().link(), data.classes(), data.columns()),
            options,
            kernels);
  }

  /** One trainer step: {@value #POINTS} datapoints (one-pair methods: that many iterations). */
  @Benchmark
  @OperationsPerInvocation(POINTS)
  public double iteration() {
    return trainer.step();
  }

  @TearDown(Level.Trial)
  public void close() {
    trainer.close();
  }
}
