package org.largecat.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/** The profiles against the suite JMH's annotation processor listed (no benchmark runs). */
class BenchProfileTest {
  private static SortedSet<BenchmarkListEntry> find(String include) {
    return BenchmarkList.defaultList()
        .find(
            OutputFormatFactory.createFormatInstance(
                new PrintStream(OutputStream.nullOutputStream()), VerboseMode.SILENT),
            List.of(include),
            List.of());
  }

  @Test
  void everyBenchmarkChoosesItsBackendByParameter() {
    SortedSet<BenchmarkListEntry> all = find(".*");
    assertTrue(all.size() >= 20, "the suite lists " + all.size() + " benchmarks");
    for (BenchmarkListEntry e : all) {
      assertTrue(
          e.getParams().hasValue() && e.getParams().get().containsKey("backend"),
          e.getUsername()
              + " has no backend parameter, so nothing checks or records what it runs on");
    }
  }

  @Test
  void everyShortRunFindsBenchmarksAndSelectsOnlyParameterValuesTheFullSuiteRuns() {
    Set<String> covered = new TreeSet<>();
    for (BenchProfile.Run run : BenchProfile.SHORT.runs()) {
      SortedSet<BenchmarkListEntry> found = find(run.include());
      assertFalse(found.isEmpty(), run.include() + " finds no benchmark");
      for (BenchmarkListEntry e : found) {
        covered.add(
            e.getUsername()
                .substring(
                    e.getUsername().lastIndexOf('.', e.getUsername().lastIndexOf('.') - 1) + 1));
        Map<String, String[]> declared = e.getParams().get();
        run.params()
            .forEach(
                (name, values) -> {
                  assertTrue(
                      declared.containsKey(name), e.getUsername() + " has no parameter " + name);
                  List<String> defaults = Arrays.asList(declared.get(name));
                  for (String v : values.split(",")) {
                    assertTrue(
                        defaults.contains(v),
                        e.getUsername() + ": " + name + "=" + v + " is not among " + defaults);
                  }
                });
      }
    }
    // The kernels of the SIMD and BLAS issues, the probit CAVI's pass over its cells, and one
    // iteration of every trainer, and the library's predict on one thread.
    assertEquals(
        Set.of(
            "VectorOpsBenchmark.dotFloat",
            "VectorOpsBenchmark.gatherDotDense",
            "VectorOpsBenchmark.sampledStepDense",
            "VectorOpsBenchmark.gatherDotSparse",
            "VectorOpsBenchmark.sumExp1000",
            "VectorOpsBenchmark.sumExpFloat1000",
            "VectorOpsBenchmark.expFloat1000",
            "SpecialFunctionsBenchmark.apply",
            "ProbitCellsBenchmark.pairThenSum",
            "ProbitCellsBenchmark.sumAndApply",
            "ImplicitUpdateBenchmark.softmaxSingleClass",
            "MatrixOpsBenchmark.gemm",
            "GemmBenchmark.dgemm",
            "GemmBenchmark.sgemm",
            "SampledStepBenchmark.iteration",
            "DoubleSumBenchmark.iteration",
            "CaviBenchmark.probitIteration",
            "CaviBenchmark.logitIteration",
            "SynthEStepBenchmark.eStep",
            "PredictBenchmark.single",
            "PredictBenchmark.batch"),
        covered);
  }

  @Test
  void theFullProfileRunsEverything() {
    assertEquals(find(".*"), find(BenchProfile.FULL.runs().getFirst().include()));
  }
}
