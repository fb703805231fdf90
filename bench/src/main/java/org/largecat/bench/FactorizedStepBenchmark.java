package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.sampled.FactorizedTrainer;
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
 * One shared-sampling A&R softmax step of the factorized model at the large vocabulary shape: K = D
 * = 10⁵, r = 128, 10 nonzeros a row, the adaptive step of {@code train --rank}. The step's three
 * gemms per thread chunk of |B|/threads rows (H U_Sᵀ, C U_S, Cᵀ H) are 6·|B|·|S|·r flops;
 * GemmBenchmark's shapes {@code scores:S}, {@code dH:S} and {@code dU:S} are the same products for
 * a chunk of 250 rows, so the two side by side show how much of the step the gemms are. The rest is
 * the per-example bound over |S| + 1 scores and phase two's row updates: |B|·nnz input rows and |B|
 * + |S| output rows, with their s.
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
public class FactorizedStepBenchmark {
  private static final int CLASSES = 100_000;
  private static final int COLUMNS = 100_000;
  private static final int RANK = 128;
  private static final int NONZEROS = 10;

  @Param({"auto"})
  public String backend;

  @Param({"500"})
  public int batch;

  @Param({"100", "1000", "4000"})
  public int sampled;

  @Param({"2"})
  public int threads;

  private FactorizedTrainer trainer;

  @Setup(Level.Trial)
  public void setUp() {
    Kernels kernels = ResolvedBackends.select(backend, null);
    SplittableRandom random = new SplittableRandom(5);
    Dataset data = BenchData.dataset(20 * batch, COLUMNS, NONZEROS, CLASSES, random);
    SampledSpec options =
        SampledSpec.builder(Method.AR_SOFTMAX)
            .batch(batch)
            .sampled(sampled)
            .threads(threads)
            .sampling(Sampling.SHARED)
            .stepSize(StepSizeSchedule.adaptive(true, true))
            .build();
    FactorizedModel model = FactorizedTrainer.initialModel(data, options, RANK);
    trainer = new FactorizedTrainer(data, model, options, kernels);
    System.out.printf(
        "%n[largecat] K = D = %d, r = %d, |B| = %d, |S| = %d: %.1f MFLOP of gemms a step%n",
        CLASSES, RANK, batch, sampled, 6e-6 * batch * sampled * RANK);
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
