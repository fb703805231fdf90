package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.largecat.bench.Baselines;
import org.largecat.bench.CpuKind;
import org.largecat.bench.JmhResult;
import org.largecat.bench.Verdict;

/**
 * What {@code largecat bench compare} prints and decides: matches the results of two JMH JSON files
 * by benchmark, mode and parameters, prints each pair with its ratio and verdict, lists what only
 * one side has, and exits 1 when a benchmark got slower or ran on other backends.
 *
 * <p>The ratio is the current time per operation over the baseline's (for throughput, the baseline
 * score over the current one), so above 1 is slower in every mode. A benchmark is SLOWER when the
 * ratio exceeds R and the difference exceeds the two JMH errors combined (√(e_b² + e_c²), each the
 * half-width of JMH's 99.9% interval, as time per operation); FASTER likewise below 1/R. R defaults
 * to {@value BenchCompareCommand#DEFAULT_THRESHOLD}: the regressions this suite is for (a lost
 * vector path, a fallback to scalar code, an array copied per call) cost well beyond that, while on
 * a shared machine back-to-back runs of the same code differ by less once the errors count
 * (bench/log/2026-11-25.md has the runs). The load of each run, which {@code --profile} writes
 * beside its JSON, is printed with the table. Without BASELINE.json it takes the baseline in {@code
 * --baselines} recorded on this machine's kind of CPU (vendor, family and model; {@link
 * Baselines}), and says which and why.
 */
final class BenchComparison {
  private BenchComparison() {}

  /**
   * Compares {@code files} (the current run last, the baseline first if given) and prints the table
   * to {@code out}; returns the exit status.
   */
  static int print(List<Path> files, Path baselinesDir, double threshold, PrintStream out)
      throws IOException {
    Path currentFile = files.getLast();
    Path baselineFile;
    if (files.size() == 2) {
      baselineFile = files.getFirst();
    } else {
      CpuKind here =
          CpuKind.ofThisMachine()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "/proc/cpuinfo names no CPU vendor, family and model here; give the"
                              + " baseline as BASELINE.json"));
      Path sidecar = Path.of(currentFile + ".txt");
      Baselines.Choice choice =
          Baselines.pick(
              baselinesDir != null ? baselinesDir : defaultBaselines(),
              here,
              Files.isRegularFile(sidecar) ? Baselines.profile(Files.readAllLines(sidecar)) : null);
      baselineFile = choice.file();
      out.println("baseline " + baselineFile + ": " + choice.reason());
    }
    Map<String, JmhResult> baseline = byKey(JmhResult.read(baselineFile));
    Map<String, JmhResult> current = byKey(JmhResult.read(currentFile));
    List<String[]> rows = new ArrayList<>();
    rows.add(
        new String[] {"benchmark", "mode", "params", "baseline", "current", "ratio", "verdict"});
    Map<Verdict, Integer> counts = new LinkedHashMap<>();
    List<String> changedBackends = new ArrayList<>();
    for (Map.Entry<String, JmhResult> e : baseline.entrySet()) {
      JmhResult b = e.getValue();
      JmhResult c = current.get(e.getKey());
      if (c == null) {
        continue;
      }
      double ratio = c.secondsPerOp() / b.secondsPerOp();
      Verdict v = Verdict.of(b, c, threshold);
      counts.merge(v, 1, Integer::sum);
      if (v == Verdict.BACKENDS_CHANGED) {
        changedBackends.add(
            b.shortName()
                + " "
                + b.describeParams()
                + ": baseline ran "
                + b.backends()
                + ", current ran "
                + c.backends());
      }
      rows.add(
          new String[] {
            b.shortName(),
            b.mode(),
            b.describeParams(),
            score(b),
            score(c),
            String.format(Locale.ROOT, "%.2f", ratio),
            v.text
          });
    }
    if (rows.size() == 1) {
      throw new IOException(
          baselineFile
              + " and "
              + currentFile
              + " have no benchmark in common (same name, mode and"
              + " params)");
    }
    out.printf(
        Locale.ROOT,
        "%s -> %s; ratio = current time per op / baseline's (above 1 is slower, throughput"
            + " included); threshold %.2f%n",
        baselineFile,
        currentFile,
        threshold);
    printMachine("baseline", baselineFile, out);
    printMachine("current ", currentFile, out);
    out.println();
    printTable(rows, out);
    for (String line : changedBackends) {
      out.println("backends changed: " + line);
    }
    listMissing("only in the baseline (not in the current run)", baseline, current, out);
    listMissing("only in the current run (no baseline)", current, baseline, out);
    int failing = 0;
    StringBuilder summary = new StringBuilder();
    for (Verdict v : Verdict.values()) {
      int n = counts.getOrDefault(v, 0);
      if (n > 0) {
        summary.append(summary.length() == 0 ? "" : ", ").append(n).append(' ').append(v.text);
        failing += v.fails ? n : 0;
      }
    }
    out.println();
    out.println((rows.size() - 1) + " compared: " + summary);
    return failing > 0 ? 1 : 0;
  }

  /**
   * {@code bench/baselines} of the checkout this code was loaded from: the jar is {@code
   * cli/target/largecat.jar}, the classes in a build {@code cli/target/classes}.
   */
  private static Path defaultBaselines() {
    Path checkout;
    try {
      checkout =
          Path.of(BenchComparison.class.getProtectionDomain().getCodeSource().getLocation().toURI())
              .toAbsolutePath();
    } catch (URISyntaxException e) {
      return Path.of("bench", "baselines");
    }
    for (int up = 0; up < 3 && checkout != null; up++) {
      checkout = checkout.getParent();
    }
    return checkout == null ? Path.of("bench", "baselines") : checkout.resolve("bench/baselines");
  }

  /**
   * The load lines of the file that {@code --profile} writes beside its JSON (FILE.txt), if there
   * is one: a ratio means little when one run shared the machine and the other did not.
   */
  private static void printMachine(String side, Path file, PrintStream out) throws IOException {
    Path sidecar = Path.of(file + ".txt");
    if (Files.isRegularFile(sidecar)) {
      for (String line : Files.readAllLines(sidecar)) {
        if (line.startsWith("before:") || line.startsWith("after:")) {
          out.println(side + " " + line);
        }
      }
    }
  }

  private static Map<String, JmhResult> byKey(List<JmhResult> results) {
    Map<String, JmhResult> m = new LinkedHashMap<>();
    results.forEach(r -> m.put(r.key(), r));
    return m;
  }

  private static String score(JmhResult r) {
    return Double.isNaN(r.error())
        ? String.format(Locale.ROOT, "%.4g %s", r.score(), r.unit())
        : String.format(Locale.ROOT, "%.4g ± %.2g %s", r.score(), r.error(), r.unit());
  }

  private static void listMissing(
      String heading, Map<String, JmhResult> side, Map<String, JmhResult> other, PrintStream out) {
    List<String> missing = side.keySet().stream().filter(k -> !other.containsKey(k)).toList();
    if (!missing.isEmpty()) {
      out.println();
      out.println(heading + ", " + missing.size() + ":");
      missing.forEach(
          k ->
              out.println(
                  "  "
                      + side.get(k).shortName()
                      + " "
                      + side.get(k).mode()
                      + " "
                      + side.get(k).describeParams()));
    }
  }

  private static void printTable(List<String[]> rows, PrintStream out) {
    int[] width = new int[rows.getFirst().length];
    for (String[] row : rows) {
      for (int j = 0; j < row.length; j++) {
        width[j] = Math.max(width[j], row[j].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int j = 0; j < row.length; j++) {
        boolean number = j == 3 || j == 4 || j == 5;
        String cell =
            number
                ? " ".repeat(width[j] - row[j].length()) + row[j]
                : row[j] + " ".repeat(width[j] - row[j].length());
        line.append(j == 0 ? "" : "  ").append(cell);
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
