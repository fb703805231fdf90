package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code largecat bench compare [BASELINE.json] CURRENT.json [--threshold R]}: the command's
 * options; {@link BenchComparison} does the work, so that this class names none of bench's types.
 */
@Command(
    name = "compare",
    description = {
      "Compares two JMH JSON results (-rf json, or --profile's output).",
      "Without BASELINE.json: the baseline in --baselines recorded on this CPU's kind (vendor, family, model).",
      "Exit status 1 if a benchmark is slower than R times the baseline beyond the errors, or ran on other backends."
    })
final class BenchCompareCommand implements Callable<Integer> {
  static final double DEFAULT_THRESHOLD = 1.3;

  private final PrintStream out;

  @Spec CommandSpec spec;

  @Parameters(
      arity = "1..2",
      paramLabel = "[BASELINE.json] CURRENT.json",
      description = "The baseline (default: this CPU's in --baselines) and the current run.")
  List<Path> files;

  @Option(
      names = "--baselines",
      paramLabel = "DIR",
      description =
          "Where to look for this CPU's baseline (default: bench/baselines of the checkout that"
              + " holds the jar).")
  Path baselinesDir;

  @Option(
      names = "--threshold",
      paramLabel = "R",
      converter = OptionTypes.RatioAboveOne.class,
      description =
          "The ratio of times beyond which a benchmark is slower (default: ${DEFAULT-VALUE}).")
  double threshold = DEFAULT_THRESHOLD;

  BenchCompareCommand(Largecat.Streams streams) {
    this.out = streams.out();
  }

  @Override
  public Integer call() throws IOException {
    BenchCommand.requireSuite(spec);
    return BenchComparison.print(files, baselinesDir, threshold, out);
  }
}
