package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.data.Dataset;
import org.largecat.fit.Trainers;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Sampling;
import org.largecat.train.Trainer;
import org.largecat.train.sampled.SampledTrainer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One iteration of each sampled trainer (the A&R bounds, OVE, NCE, importance sampling, and the
 * exact softmax over every class), against the bare kernels of the same shape. {@code bare} runs,
 * for each of |B| examples, the gather-dot of |S| + 1 rows, the sum of exp over |S| scores and the
 * scatter-axpy of |S| + 1 rows: the memory traffic no sampled method can avoid. Shapes: {@code
 * large} is K = 10⁴, D = 784 dense, |B| = 500, |S| = 100 (the A&R issue's target); {@code small} is
 * K = 100, D = 50 with 10 nonzeros, |B| = 100, |S| = 5 (a shape the public MATLAB/C++
 * implementation was timed at, bench/log/2026-11-26.md). {@code sampling} is per-example or shared
 * (one class set per mini-batch: two gemms for dense x); examples per second are |B| divided by the
 * time per iteration.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-modules",
      "jdk.incubator.vector",
      "--enable-native-access=ALL-UNNAMED",
      "-XX:+UseTransparentHugePages"
    })
@State(Scope.Thread)
public class SampledStepBenchmark {
  @Param({"auto"})
  public String backend;

  @Param({"large", "small"})
  public String shape;

  @Param({
    "ar-softmax",
    "ar-probit",
    "ar-logistic",
    "ove",
    "nce",
    "is",
    "exact-softmax-sgd",
    "bare"
  })
  public String method;

  @Param({"per-example", "shared"})
  public String sampling;

  @Param({"1"})
  public int threads;

  private Kernels kernels;
  private Trainer trainer;
  private Dataset data;
  private float[] weights;
  private float[] gradient;
  private int classes;
  private int sampled;
  private int batch;
  private int[] rows;
  private double[] scores;
  private float[] coef;

  @Setup(Level.Trial)
  public void setUp() {
    kernels = ResolvedBackends.select(backend, null);
    boolean large = shape.equals("large");
    classes = large ? 10_000 : 100;
    int columns = large ? 784 : 50;
    batch = large ? 500 : 100;
    sampled = large ? 100 : 5;
    SplittableRandom random = new SplittableRandom(42);
    data = BenchData.dataset(20 * batch, columns, large ? columns : 10, classes, random);
    if (method.equals("bare")) {
      weights = BenchData.gaussianFloats(classes * columns, 0.1, random);
      gradient = new float[classes * columns];
      rows = new int[sampled + 1];
      scores = new double[sampled + 1];
      coef = new float[sampled + 1];
      return;
    }
    SampledSpec options =
        SampledSpec.builder(Method.byLabel(method))
            .batch(batch)
            .sampled(sampled)
            .threads(threads)
            .sampling(Sampling.byLabel(sampling))
            .build();
    LinearModel model = LinearModel.zeros(options.method().link(), classes, columns);
    SampledTrainer.initialise(model, options);
    trainer = Trainers.create(data, model, options, kernels);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (trainer != null) {
      trainer.close();
    }
  }

  @Benchmark
  public double iteration() {
    return trainer != null ? trainer.step() : bareKernels();
  }

  private int next;
  private final SplittableRandom sampler = new SplittableRandom(7);

  private double bareKernels() {
    double total = 0;
    for (int i = 0; i < batch; i++) {
      int n = next++ % data.rows();
      rows[0] = data.labels()[n];
      for (int j = 1; j <= sampled; j++) {
        rows[j] = sampler.nextInt(classes);
      }
      data.features()
          .gatherDot(kernels.vectorOps(), weights, classes, n, rows, 0, sampled + 1, scores, 0);
      total += kernels.vectorOps().sumExp(sampled, scores, 1, scores[0]);
      coef[0] = 1e-3f;
      data.features()
          .scatterAxpy(kernels.vectorOps(), gradient, classes, n, rows, 0, sampled + 1, coef, 0);
    }
    return total;
  }
}
