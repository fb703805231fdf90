package org.largecat.bench;

import java.util.concurrent.TimeUnit;
import org.largecat.synth.ChoiceData;
import org.largecat.synth.SynthModel;
import org.largecat.synth.VariationalEm;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * One E-step of the synthetic-categorical-data EM (Algorithm 1) over a block of {@value #USERS}
 * users answering {@value #ITEMS} items of {@value #CHOICES} choices, latent dimension {@value
 * #LATENT}: q(z_u) for every user, variational (§3) or Laplace (§5.1), from the generating model. A
 * fit of one iteration is exactly one E-step (the M-step runs only between iterations).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Thread)
public class SynthEStepBenchmark {
  private static final int USERS = 2_000;
  private static final int ITEMS = 20;
  private static final int CHOICES = 5;
  private static final int LATENT = 3;

  @Param({"auto"})
  public String backend;

  @Param({"vem", "laplace"})
  public String method;

  @Param({"1"})
  public int threads;

  private SynthModel truth;
  private ChoiceData data;
  private VariationalEm.Options options;

  @Setup(Level.Trial)
  public void prepare() {
    ResolvedBackends.select(
        backend, null); // VariationalEm takes Kernels.get(), which select makes this choice
    truth = SynthModel.randomTruth(ITEMS, CHOICES, LATENT, 7);
    data = truth.sample(USERS, 8);
    VariationalEm.Method m = VariationalEm.Method.parse(method);
    options =
        new VariationalEm.Options(
            LATENT, m, threads, 1, 0, 9, 1, m == VariationalEm.Method.VEM ? 0 : 1);
  }

  @Benchmark
  public double eStep() throws InterruptedException {
    return VariationalEm.fit(data, options, truth, iteration -> {}).iterations().getFirst().bound();
  }
}
