package org.largecat.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.largecat.Labelled;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * A named, fixed selection of the suite with fixed forks, iterations and times, run by {@code
 * largecat bench --profile NAME}; its results go to one JSON file that {@code largecat bench
 * compare} reads. {@link #SHORT} is for CI and for the committed baselines: the kernels of the SIMD
 * and BLAS issues at their shapes on scalar and every fast backend of their family (gemm on scalar
 * only at n = 256: 1000³ takes seconds there), and one iteration of each trainer at one realistic
 * shape on auto's choice, and the library's predict on one thread (one example, a block) at its
 * four shapes. {@link #FULL} is for releases: every benchmark at every parameter its annotations
 * list, with the annotations' own iterations.
 */
public enum BenchProfile implements Labelled {
  SHORT(
      "short",
      List.of(
          new Run(
              "\\.VectorOpsBenchmark\\.(dotFloat|gatherDotDense|sampledStepDense|gatherDotSparse|sumExp1000|sumExpFloat1000|expFloat1000)$",
              Map.of("backend", "scalar,simd,native")),
          new Run(
              "\\.SpecialFunctionsBenchmark\\.",
              Map.of("backend", "scalar,simd,native", "size", "1000", "function", "EXP")),
          new Run(
              "\\.SpecialFunctionsBenchmark\\.",
              Map.of(
                  "backend",
                  "scalar,simd,native",
                  "size",
                  "100000",
                  "function",
                  "NORMAL_LOG_CDF,NORMAL_MILLS_RATIO,TRUNCATED_NORMAL_MEAN_NEGATIVE,TRUNCATED_NORMAL_VARIANCE_NEGATIVE")),
          new Run(
              "\\.ProbitCellsBenchmark\\.",
              Map.of("backend", "scalar,simd,native", "range", "right")),
          new Run("\\.ImplicitUpdateBenchmark\\.", Map.of("backend", "scalar,simd,native")),
          new Run("\\.MatrixOpsBenchmark\\.gemm$", Map.of("backend", "scalar,simd,blas,jblas")),
          new Run("\\.GemmBenchmark\\.", Map.of("backend", "simd,blas,jblas")),
          new Run(
              "\\.SampledStepBenchmark\\.",
              Map.of(
                  "backend",
                  "auto",
                  "shape",
                  "large",
                  "sampling",
                  "per-example",
                  "method",
                  "ar-softmax,ar-probit,ar-logistic,ove,nce,is,exact-softmax-sgd")),
          new Run("\\.DoubleSumBenchmark\\.", Map.of("backend", "auto", "shape", "dense-784")),
          new Run(
              "\\.CaviBenchmark\\.(probitIteration|logitIteration)$",
              Map.of("backend", "auto,simd")),
          new Run("\\.SynthEStepBenchmark\\.", Map.of("backend", "auto")),
          new Run("\\.PredictBenchmark\\.(single|batch)$", Map.of("backend", "auto"))),
      true),
  FULL("full", List.of(new Run("^org\\.largecat\\.bench\\.", Map.of())), false);

  /**
   * One JMH run of a profile: the benchmarks its regular expression finds, with these parameters
   * overridden.
   */
  public record Run(String include, Map<String, String> params) {}

  private final String label;
  private final List<Run> runs;
  private final boolean fixedIterations;

  BenchProfile(String label, List<Run> runs, boolean fixedIterations) {
    this.label = label;
    this.runs = runs;
    this.fixedIterations = fixedIterations;
  }

  @Override
  public String label() {
    return label;
  }

  public List<Run> runs() {
    return runs;
  }

  /** Where the results go unless {@code --out} says otherwise: {@code results/bench/NAME.json}. */
  public Path defaultOutput() {
    return Path.of("results", "bench", label + ".json");
  }

  /**
   * The options of one run: the include and parameters; the short profile fixes one fork, 3 warm-up
   * iterations of 1 s and 5 measured iterations of 0.2 s (the Vector API's implicit updates, and
   * Implicit SGD on them, are still far slower in their second second than from their fourth on,
   * before C2 has compiled them); the full one keeps each benchmark's annotations.
   */
  ChainedOptionsBuilder configure(Run run, ChainedOptionsBuilder options) {
    options.include(run.include());
    run.params().forEach((name, values) -> options.param(name, values.split(",")));
    if (fixedIterations) {
      options
          .forks(1)
          .warmupIterations(3)
          .warmupTime(TimeValue.seconds(1))
          .measurementIterations(5)
          .measurementTime(TimeValue.milliseconds(200));
    }
    return options;
  }

  /** The profile with this name. */
  public static BenchProfile byLabel(String label) {
    return Labelled.byLabel(BenchProfile.class, label, "profile");
  }
}
