package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.largecat.experiments.Experiment;
import org.largecat.experiments.ExperimentResult;
import org.largecat.experiments.ExperimentSettings;
import org.largecat.experiments.ResultTable;
import org.largecat.train.Sampling;

/** {@code largecat reproduce NAME}: runs one of the papers' experiments end to end and prints ours beside the paper's. */
final class ReproduceCommand {
  static final String USAGE = """
             largecat reproduce NAME [--quick] [--threads N] [--out DIR] [--data DIR] [--sampling per-example|shared]
                                [--iterations T]
                                                       run an experiment: its tables (printed, CSV, JSON) and figures
                                                       (PNG, SVG) go to DIR (results/NAME); real sets are read from
                                                       --data (data/), as 'largecat data prepare NAME --out data/NAME'
                                                       writes them; --iterations overrides the experiment's count
      """ + Arrays.stream(Experiment.values())
          .map(e -> String.format("               %-16s %s%n", e.label(), e.summary()))
          .collect(Collectors.joining());

  private ReproduceCommand() {}

  static int run(String[] rest, PrintStream out, PrintStream err) throws IOException {
    if (rest.length == 0) {
      throw new Largecat.UsageException("reproduce: expected an experiment name, one of "
          + Arrays.stream(Experiment.values()).map(Experiment::label).collect(Collectors.joining(", ")));
    }
    Experiment experiment;
    try {
      experiment = Experiment.byLabel(rest[0]);
    } catch (IllegalArgumentException e) {
      throw new Largecat.UsageException("reproduce: " + e.getMessage());
    }
    CommandLine args = new CommandLine("reproduce " + experiment.label(), Arrays.copyOfRange(rest, 1, rest.length),
        List.of("--threads", "--out", "--data", "--sampling", "--iterations"), List.of("--quick"));
    ExperimentSettings settings = new ExperimentSettings(args.has("--quick"),
        args.integer("--threads", Runtime.getRuntime().availableProcessors(), 1),
        Path.of(args.string("--out", "results/" + experiment.label())), Path.of(args.string("--data", "data")),
        Sampling.byLabel(args.string("--sampling", Sampling.PER_EXAMPLE.label())),
        args.has("--iterations") ? OptionalInt.of(args.integer("--iterations", 0, 1)) : OptionalInt.empty(), err);
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
