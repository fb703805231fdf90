package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.largecat.experiments.ArReal;
import org.largecat.experiments.ArSynthetic;
import org.largecat.experiments.ResultTable;

/** {@code largecat reproduce NAME}: runs one of the papers' experiments end to end and prints ours beside the paper's. */
final class ReproduceCommand {
  static final String USAGE = """
             largecat reproduce ar-synthetic [--iterations T] [--quick] [--threads N] [--out DIR]
                                                       A&R §4.1: bound and probability error of A&R vs OVE on the
                                                       K = 10⁴ toy set (paper: 5·10⁵ iterations; --quick: 2·10⁴)
             largecat reproduce ar-real [--data DIR] [--quick] [--threads N] [--out DIR]
                                                       A&R Tables 2–3 on fashion-mnist and kjv-nextword as prepared
                                                       by 'largecat data prepare NAME --out DIR/NAME' (DIR: data)
      """;

  private ReproduceCommand() {}

  static int run(String[] rest, PrintStream out, PrintStream err) throws IOException {
    if (rest.length == 0) {
      throw new Largecat.UsageException("reproduce: expected an experiment name: ar-synthetic or ar-real");
    }
    String name = rest[0];
    CommandLine args = new CommandLine("reproduce " + name, Arrays.copyOfRange(rest, 1, rest.length),
        name.equals("ar-real") ? List.of("--data", "--threads", "--out") : List.of("--iterations", "--threads", "--out"),
        List.of("--quick"));
    int threads = args.integer("--threads", Runtime.getRuntime().availableProcessors(), 1);
    Path outDir = Path.of(args.string("--out", "results/" + name));
    ResultTable table = switch (name) {
      case "ar-synthetic" -> ArSynthetic.run(args.integer("--iterations", args.has("--quick") ? 20_000 : 500_000, 1),
          threads, err);
      case "ar-real" -> ArReal.run(Path.of(args.string("--data", "data")), args.has("--quick"), threads, outDir, err);
      default -> throw new Largecat.UsageException("reproduce: unknown experiment '" + name + "' (ar-synthetic or ar-real)");
    };
    table.print(out);
    err.println("reproduce " + name + ": table written to " + table.write(outDir));
    return 0;
  }
}
