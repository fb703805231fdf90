package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.bench.CpuKind;

/** {@code largecat bench compare} on small JMH result files written here; JMH itself never runs. */
class BenchCompareCommandTest {
  @TempDir Path dir;

  /**
   * One result as JMH writes it, with only the fields the comparison reads (and a backends label
   * when given).
   */
  private static String result(
      String benchmark,
      String mode,
      String params,
      double score,
      String error,
      String unit,
      String backends) {
    String secondary =
        backends == null
            ? ""
            : String.format(
                Locale.ROOT,
                "\"backends %s\" : {\"score\" : 1.0, \"scoreError\" : \"NaN\", \"scoreUnit\" : \"resolved\"}",
                backends);
    return String.format(
        Locale.ROOT,
        """
        {"jmhVersion" : "1.37", "benchmark" : "org.largecat.bench.%s", "mode" : "%s", "threads" : 1, "forks" : 1,
         "params" : {%s},
         "primaryMetric" : {"score" : %s, "scoreError" : %s, "scoreUnit" : "%s"},
         "secondaryMetrics" : {%s}}""",
        benchmark,
        mode,
        params,
        score,
        error,
        unit,
        secondary);
  }

  private static String avgt(String benchmark, String backend, double score, double error) {
    return result(
        benchmark,
        "avgt",
        "\"backend\" : \"" + backend + "\"",
        score,
        Double.toString(error),
        "us/op",
        null);
  }

  private static String thrpt(String benchmark, double score, double error) {
    return result(benchmark, "thrpt", "", score, Double.toString(error), "ops/s", null);
  }

  private Path file(String name, String... results) throws IOException {
    return Files.writeString(dir.resolve(name), "[\n" + String.join(",\n", results) + "\n]\n");
  }

  private CommandRun compare(Path baseline, Path current, String... more) throws Exception {
    return CommandRun.of(
        Stream.concat(
                Stream.of("bench", "compare", baseline.toString(), current.toString()),
                Stream.of(more))
            .toArray(String[]::new));
  }

  /** The table line of a benchmark (with its params), which must be there exactly once. */
  private static String line(CommandRun run, String benchmarkAndParams) {
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(benchmarkAndParams.split(" ")[0]) + " .*$")
            .matcher(run.out());
    String found = null;
    while (m.find()) {
      if (m.group().contains(benchmarkAndParams.substring(benchmarkAndParams.indexOf(' ') + 1))) {
        assertEquals(null, found, "two lines for " + benchmarkAndParams + " in\n" + run.out());
        found = m.group();
      }
    }
    assertTrue(found != null, "no line for " + benchmarkAndParams + " in\n" + run.out());
    return found;
  }

  @Test
  void averageTimeSlowerBeyondThresholdAndErrorFailsAndFasterIsReported() throws Exception {
    Path base =
        file(
            "base.json",
            avgt("A.dot", "simd", 100, 5),
            avgt("A.dot", "scalar", 400, 10),
            avgt("A.gather", "simd", 50, 1));
    Path cur =
        file(
            "cur.json",
            avgt("A.dot", "simd", 150, 5),
            avgt("A.dot", "scalar", 200, 10),
            avgt("A.gather", "simd", 55, 1));
    CommandRun run = compare(base, cur);
    assertEquals(1, run.status(), run.out() + run.err());
    assertTrue(
        line(run, "A.dot backend=simd").matches(".*\\b1\\.50\\s+SLOWER$"),
        line(run, "A.dot backend=simd"));
    assertTrue(
        line(run, "A.dot backend=scalar").matches(".*\\b0\\.50\\s+faster$"),
        line(run, "A.dot backend=scalar"));
    assertTrue(
        line(run, "A.gather backend=simd").matches(".*\\b1\\.10\\s+ok$"),
        line(run, "A.gather backend=simd"));
    assertTrue(run.out().contains("3 compared: 1 SLOWER, 1 faster, 1 ok"), run.out());
  }

  @Test
  void throughputLowerIsSlowerAndHigherIsFaster() throws Exception {
    Path base =
        file(
            "base.json",
            thrpt("T.lower", 1000, 10),
            thrpt("T.higher", 1000, 10),
            thrpt("T.same", 1000, 10));
    Path cur =
        file(
            "cur.json",
            thrpt("T.lower", 500, 10),
            thrpt("T.higher", 2000, 10),
            thrpt("T.same", 900, 10));
    CommandRun run = compare(base, cur);
    assertEquals(1, run.status(), run.out());
    assertTrue(
        line(run, "T.lower thrpt").matches(".*\\b2\\.00\\s+SLOWER$"), line(run, "T.lower thrpt"));
    assertTrue(
        line(run, "T.higher thrpt").matches(".*\\b0\\.50\\s+faster$"), line(run, "T.higher thrpt"));
    assertTrue(line(run, "T.same thrpt").matches(".*\\b1\\.11\\s+ok$"), line(run, "T.same thrpt"));
  }

  @Test
  void onlyFasterOrSameExitsZero() throws Exception {
    Path base = file("base.json", thrpt("T.a", 1000, 10), avgt("A.b", "simd", 100, 1));
    Path cur = file("cur.json", thrpt("T.a", 1100, 10), avgt("A.b", "simd", 50, 1));
    Files.writeString(
        dir.resolve("cur.json.txt"),
        "profile short\nbefore: load 0.5\nafter:  load 0.7\njava 25\n");
    CommandRun run = compare(base, cur);
    assertEquals(0, run.status(), run.out());
    assertTrue(
        run.out().contains("\ncurrent  before: load 0.5\ncurrent  after:  load 0.7\n\n"),
        run.out());
    assertFalse(run.out().contains("baseline before"), run.out());
    assertTrue(run.out().contains("2 compared: 1 faster, 1 ok"), run.out());
  }

  @Test
  void aSlowdownWithinTheErrorsDoesNotFail() throws Exception {
    // 1.5x slower, but the errors (40 and 30 us) combine to 50 us, the difference: not beyond them.
    Path base = file("base.json", avgt("A.noisy", "simd", 100, 40));
    Path cur = file("cur.json", avgt("A.noisy", "simd", 150, 30));
    CommandRun run = compare(base, cur);
    assertEquals(0, run.status(), run.out());
    assertTrue(
        line(run, "A.noisy backend=simd").endsWith("ok (beyond R, within error)"), run.out());
  }

  @Test
  void theThresholdDecides() throws Exception {
    Path base = file("base.json", avgt("A.dot", "simd", 100, 1));
    Path cur = file("cur.json", avgt("A.dot", "simd", 125, 1));
    assertEquals(0, compare(base, cur).status());
    CommandRun strict = compare(base, cur, "--threshold", "1.2");
    assertEquals(1, strict.status(), strict.out());
    assertTrue(strict.out().contains("threshold 1.20"), strict.out());
  }

  @Test
  void unitsAreConvertedBeforeComparing() throws Exception {
    Path base = file("base.json", result("G.gemm", "avgt", "", 2, "0.01", "ms/op", null));
    Path cur = file("cur.json", result("G.gemm", "avgt", "", 2500, "10", "us/op", null));
    CommandRun run = compare(base, cur);
    assertTrue(line(run, "G.gemm avgt").matches(".*\\b1\\.25\\s+ok$"), run.out());
  }

  @Test
  void missingBenchmarksAreListedOnBothSides() throws Exception {
    Path base = file("base.json", avgt("A.kept", "simd", 100, 1), avgt("A.gone", "native", 10, 1));
    Path cur = file("cur.json", avgt("A.kept", "simd", 100, 1), avgt("A.kept", "native", 20, 1));
    CommandRun run = compare(base, cur);
    assertEquals(0, run.status(), run.out());
    String out = run.out();
    assertTrue(
        out.matches(
            "(?s).*only in the baseline \\(not in the current run\\), 1:\\n  A\\.gone avgt backend=native\\n.*"),
        out);
    assertTrue(
        out.matches(
            "(?s).*only in the current run \\(no baseline\\), 1:\\n  A\\.kept avgt backend=native\\n.*"),
        out);
  }

  @Test
  void otherResolvedBackendsFail() throws Exception {
    String params = "\"backend\" : \"auto\"";
    Path base =
        file(
            "base.json",
            result(
                "S.step",
                "avgt",
                params,
                100,
                "1",
                "us/op",
                "vector-ops=native special-functions=simd implicit-updates=simd matrix-ops=blas"));
    Path cur =
        file(
            "cur.json",
            result(
                "S.step",
                "avgt",
                params,
                100,
                "1",
                "us/op",
                "vector-ops=simd special-functions=simd implicit-updates=simd matrix-ops=blas"));
    CommandRun run = compare(base, cur);
    assertEquals(1, run.status(), run.out());
    assertTrue(
        run.out().contains("backends changed: S.step backend=auto: baseline ran vector-ops=native"),
        run.out());
  }

  @Test
  void readsWhatJmhWrites() throws Exception {
    Path real = dir.resolve("jmh.json");
    try (InputStream in =
        Objects.requireNonNull(getClass().getResourceAsStream("/bench/jmh-1.37-avgt.json"))) {
      Files.copy(in, real);
    }
    CommandRun run = compare(real, real);
    assertEquals(0, run.status(), run.out() + run.err());
    assertTrue(
        line(run, "ImplicitUpdateBenchmark.softmaxSingleClass backend=native")
            .contains("359.6 us/op"),
        run.out());
    assertTrue(run.out().contains("2 compared: 2 ok"), run.out());
  }

  private void assertBadFile(String content, String expected) throws Exception {
    Path good = file("good.json", avgt("A.dot", "simd", 100, 1));
    Path bad = Files.writeString(dir.resolve("bad.json"), content);
    for (CommandRun run : new CommandRun[] {compare(bad, good), compare(good, bad)}) {
      assertEquals(2, run.status(), run.out() + run.err());
      assertTrue(
          run.err().contains(bad + ": " + expected),
          "expected '" + expected + "' in: " + run.err());
    }
  }

  @Test
  void malformedFilesExitTwoNamingTheFileAndTheFault() throws Exception {
    assertBadFile("[{\"benchmark\" : ", "not JSON");
    assertBadFile(
        "{\"benchmark\" : \"x\"}",
        "not a JMH result file: expected a JSON array of results, found an object");
    assertBadFile(
        "[" + avgt("A.dot", "simd", 100, 1).replace("\"primaryMetric\"", "\"other\"") + "]",
        "result 1 (org.largecat.bench.A.dot): no primaryMetric object");
    assertBadFile(
        "[" + avgt("A.dot", "simd", 100, 1).replace("\"avgt\"", "\"fast\"") + "]",
        "result 1 (org.largecat.bench.A.dot): unknown mode 'fast'");
    assertBadFile(
        "[" + avgt("A.dot", "simd", 100, 1).replace("us/op", "ops/us") + "]",
        "result 1 (org.largecat.bench.A.dot): unit 'ops/us' does not fit mode avgt");
    assertBadFile(
        "["
            + avgt("A.dot", "simd", 100, 1).replace("\"score\" : 100.0", "\"score\" : \"fast\"")
            + "]",
        "result 1 (org.largecat.bench.A.dot): primaryMetric.score is not a number");
    assertBadFile(
        "[" + avgt("A.dot", "simd", 100, 1) + ",\n" + avgt("A.dot", "simd", 90, 1) + "]",
        "results 1 and 2 are both org.largecat.bench.A.dot avgt backend=simd");
  }

  @Test
  void missingFileNothingInCommonAndBadArgumentsExitTwo() throws Exception {
    Path good = file("good.json", avgt("A.dot", "simd", 100, 1));
    Path other = file("other.json", avgt("A.dot", "native", 100, 1));
    CommandRun missing = compare(dir.resolve("none.json"), good);
    assertEquals(2, missing.status());
    assertTrue(missing.err().contains(dir.resolve("none.json") + ": no such file"), missing.err());
    CommandRun disjoint = compare(good, other);
    assertEquals(2, disjoint.status());
    assertTrue(disjoint.err().contains("have no benchmark in common"), disjoint.err());
    assertEquals(2, compare(good, good, "--threshold", "0.9").status());
    assertEquals(2, CommandRun.of("bench", "compare").status());
  }

  private static void writeBaseline(Path file, CpuKind cpu, String result) throws IOException {
    Files.writeString(file, "[\n" + result + "\n]\n");
    Files.writeString(
        Path.of(file + ".txt"), "profile short: 1 results in 1 s\n" + cpu.sidecarLine() + "\n");
  }

  @Test
  void withoutABaselineItTakesTheOneOfThisCpusKindOrListsThoseThere() throws Exception {
    CpuKind here = CpuKind.ofThisMachine().orElse(null);
    assumeTrue(here != null, "/proc/cpuinfo names no CPU vendor, family and model here");
    CpuKind other = new CpuKind(here.vendor(), here.family() + 1, here.model(), "elsewhere");
    Path baselines = Files.createDirectory(dir.resolve("baselines"));
    Path mine = baselines.resolve("short-here.json");
    writeBaseline(mine, here, avgt("A.dot", "simd", 100, 1));
    // The other kind's is 4 times as fast: compared with it, the current run would fail.
    writeBaseline(baselines.resolve("short-other.json"), other, avgt("A.dot", "simd", 25, 1));
    Path cur = file("cur.json", avgt("A.dot", "simd", 101, 1));
    String[] args = {"bench", "compare", cur.toString(), "--baselines", baselines.toString()};
    CommandRun picked = CommandRun.of(args);
    assertEquals(0, picked.status(), picked.out() + picked.err());
    assertTrue(
        picked.out().startsWith("baseline " + mine + ": recorded on this CPU's kind, " + here),
        picked.out());
    Files.delete(mine);
    Files.delete(Path.of(mine + ".txt"));
    CommandRun none = CommandRun.of(args);
    assertEquals(2, none.status());
    assertTrue(
        none.err()
                .contains(
                    "no baseline in " + baselines + " was recorded on this CPU's kind, " + here)
            && none.err().contains("short-other.json (" + other + ")"),
        none.err());
    // An explicit baseline is still taken as given.
    assertEquals(1, compare(baselines.resolve("short-other.json"), cur).status());
  }

  @Test
  void aBadProfileCommandLineExitsTwoBeforeAnyBenchmarkRuns() throws Exception {
    CommandRun unknown = CommandRun.of("bench", "--profile", "weekly");
    assertEquals(2, unknown.status());
    assertTrue(
        unknown.err().contains("unknown profile 'weekly'; one of short, full"), unknown.err());
    CommandRun extra = CommandRun.of("bench", "--profile", "short", "-f", "3");
    assertEquals(2, extra.status());
    assertTrue(extra.err().contains("--profile takes no JMH arguments, got [-f, 3]"), extra.err());
  }
}
