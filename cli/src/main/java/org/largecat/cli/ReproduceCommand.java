package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.largecat.AtomicWrite;
import org.largecat.experiments.Experiment;
import org.largecat.experiments.ExperimentResult;
import org.largecat.experiments.ExperimentSettings;
import org.largecat.experiments.ResultTable;
import org.largecat.train.Sampling;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code largecat reproduce NAME}: runs one of the papers' experiments end to end and prints ours
 * beside the paper's.
 */
@Command(
    name = "reproduce",
    description = {
      "Runs an experiment: its tables (printed, CSV, JSON) and figures (PNG, SVG)"
          + " go to --out; real sets are read from --data, as 'largecat data prepare NAME --out data/NAME' writes them."
    })
final class ReproduceCommand implements Callable<Integer> {
  private final Largecat.Streams streams;

  @Parameters(paramLabel = "NAME", description = "The experiment, one of those below.")
  Experiment experiment;

  @Option(names = "--quick", description = "A smaller, faster form of the experiment.")
  boolean quick;

  @Option(
      names = "--threads",
      paramLabel = "N",
      converter = OptionTypes.Count.class,
      description = "Worker threads (default: one per core).")
  int threads = Runtime.getRuntime().availableProcessors();

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Where the tables and figures go (default: results/NAME).")
  Path outDir;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      defaultValue = "data",
      description = "Where the prepared real sets are (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--sampling",
      paramLabel = "per-example|shared",
      defaultValue = "per-example",
      description =
          "Sampled classes per example or shared by a mini-batch (default: ${DEFAULT-VALUE}).")
  Sampling sampling;

  @Option(
      names = "--iterations",
      paramLabel = "T",
      converter = OptionTypes.Count.class,
      description = "Overrides the experiment's count.")
  Integer iterations;

  ReproduceCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  @Spec
  void listExperiments(CommandSpec spec) {
    spec.usageMessage()
        .footer(
            "%nExperiments:%n"
                + Arrays.stream(Experiment.values())
                    .map(e -> String.format("  %-16s %s%n", e.label(), e.summary()))
                    .collect(Collectors.joining()));
  }

  @Override
  public Integer call() throws IOException {
    PrintStream out = streams.out();
    Path resultsDir = outDir != null ? outDir : Path.of("results/" + experiment.label());
    AtomicWrite.createDirectories(resultsDir);
    ExperimentSettings settings =
        new ExperimentSettings(
            quick,
            threads,
            resultsDir,
            dataDir,
            sampling,
            iterations != null ? OptionalInt.of(iterations) : OptionalInt.empty(),
            streams.err());
    ExperimentResult result = experiment.run(settings);
    for (ResultTable table : result.tables()) {
      out.println();
      out.println(table.name() + ":");
      table.print(out);
    }
    if (!result.figures().isEmpty()) {
      out.println();
      out.println("figures:");
      result.figures().forEach(f -> out.println("  " + f));
    }
    return 0;
  }
}
