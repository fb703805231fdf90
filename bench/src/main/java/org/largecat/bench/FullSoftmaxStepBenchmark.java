package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.data.Dataset;
import org.largecat.fit.Trainers;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.StepSizeSchedule;
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
 * One mini-batch step of the exact (full) softmax with plain SGD, {@code exact-softmax-sgd}, at K =
 * 10⁴, D = 784 dense, |B| = 500 on 1 or 2 threads: the scores X_B Wᵀ + b, the row-wise softmax, the
 * gradient (Y − P)ᵀ X_B and the update, as PyTorch's cross-entropy step of the same shape does
 * (bench/full-softmax-vs-pytorch.sh runs both). Examples per second are 500 divided by the time per
 * iteration. The trainers' own threads do the work, so OpenBLAS should run on one
 * (OPENBLAS_NUM_THREADS=1, as ./largecat sets it).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
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
public class FullSoftmaxStepBenchmark {
  @Param({"auto"})
  public String backend;

  @Param({"1", "2"})
  public int threads;

  private Trainer trainer;

  @Setup(Level.Trial)
  public void setUp() {
    Kernels kernels = ResolvedBackends.select(backend, null);
    int classes = 10_000;
    int columns = 784;
    int batch = 500;
    Dataset data =
        BenchData.dataset(20 * batch, columns, columns, classes, new SplittableRandom(42));
    SampledSpec options =
        SampledSpec.builder(Method.EXACT_SOFTMAX_SGD)
            .batch(batch)
            .sampled(classes - 1)
            .threads(threads)
            .stepSize(new StepSizeSchedule.Sgd(0.01, 1))
            .build();
    LinearModel model = LinearModel.zeros(options.method().link(), classes, columns);
    SampledTrainer.initialise(model, options);
    trainer = Trainers.create(data, model, options, kernels);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    trainer.close();
  }

  @Benchmark
  public double iteration() {
    return trainer.step();
  }
}
