package org.largecat.bench;

import java.util.concurrent.TimeUnit;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.CbSimulation;
import org.largecat.cb.Design;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.cb.Link;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * IB-CAVI at the sizes the issue names, all cores: one CB-probit iteration at K = 1,000, M = 21 (20
 * features and the intercept), N = 16,000 and the CBC + CBM probabilities of those N x K cells; one
 * CB-logit iteration at K = 20, M = 11, N = 4,000. Data from the App. G.1.1 simulator (dense).
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
      "-Xmx8g"
    })
public class CaviBenchmark {

  /**
   * The backend, and a prepared run of each size on it. simd runs the products on the Vector API
   * instead of auto's BLAS; which is faster depends on the CPU and on the OpenBLAS kernels run on
   * it.
   */
  @State(Scope.Benchmark)
  public static class Runs {
    @Param({"auto", "simd"})
    public String backend;

    IbCavi probit;
    IbCavi logit;
    CbPredictor probitPredictor;
    Design probitDesign;

    /**
     * The N x K outputs, written again by each call: allocating them (256 MB) per call would
     * measure the page faults of zeroing new pages in the kernel instead.
     */
    CbPredictor.Predictions probitPredictions;

    @Setup(Level.Trial)
    public void prepare() {
      Kernels kernels = ResolvedBackends.select(backend, null);
      int threads = Runtime.getRuntime().availableProcessors();
      System.out.println("[largecat] " + threads + " threads");
      Dataset big = CbSimulation.generate(16_000, 1_000, 20, 2.0, Math.sqrt(0.001), 0.5, 1).data();
      probit =
          IbCavi.start(
              big,
              GaussianPrior.isotropic(21, 1),
              CaviOptions.of(Link.PROBIT).withThreads(threads),
              kernels);
      probit.iterate(); // means away from the prior's zeros
      probitPredictor = new CbPredictor(probit.posterior(), kernels);
      probitDesign = Design.withIntercept(big.features(), kernels);
      probitPredictions = CbPredictor.Predictions.allocate(big.rows(), big.classes());
      Dataset small = CbSimulation.generate(4_000, 20, 10, 2.0, Math.sqrt(0.001), 0.5, 2).data();
      logit =
          IbCavi.start(
              small,
              GaussianPrior.isotropic(11, 1),
              CaviOptions.of(Link.LOGIT).withThreads(threads),
              kernels);
    }

    @TearDown(Level.Trial)
    public void close() {
      probit.close();
      logit.close();
    }
  }

  @Benchmark
  public double probitIteration(Runs runs) {
    return runs.probit.iterate();
  }

  @Benchmark
  public void probitProbabilities(Runs runs, Blackhole bh) {
    bh.consume(runs.probitPredictor.plugIn(runs.probitDesign, runs.probitPredictions));
  }

  @Benchmark
  public double logitIteration(Runs runs) {
    return runs.logit.iterate();
  }
}
