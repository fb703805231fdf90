package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.largecat.prepare.FashionMnist;
import org.largecat.prepare.KjvNextWord;
import org.largecat.prepare.PreparedSet;
import org.largecat.prepare.RDataset;

/**
 * {@code largecat data prepare NAME --out DIR}: converts a real dataset installed from a Debian package
 * into the repository's text format with a training / test split (see {@link PreparedSet}); a missing
 * package is an error naming the line that installs it.
 */
final class PrepareCommand {
  static final String USAGE = """
             largecat data prepare fashion-mnist|kjv-nextword|glass|letter|detergent --out DIR [--seed N] [--source DIR]
                                                       a real set from its Debian package (dataset-fashion-mnist;
                                                       bible-kjv; r-cran-mlbench for glass and letter; r-cran-mnp)
                                                       to DIR/train.txt, test.txt, classes.txt and README.txt (the
                                                       recipe, N, D, K, split and package version); --seed: the
                                                       glass and detergent splits; --source: fashion-mnist's IDX
                                                       directory (default /usr/share/datasets/fashion-mnist)
      """;

  private PrepareCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    if (args.length == 0) {
      throw new Largecat.UsageException("data prepare: expected a set name: fashion-mnist, kjv-nextword, glass, letter or detergent");
    }
    String name = args[0];
    String[] options = Arrays.copyOfRange(args, 1, args.length);
    RDataset rSet = RDataset.byName(name);
    List<String> valued = switch (name) {
      case "fashion-mnist" -> List.of("--out", "--source");
      case "kjv-nextword", "letter" -> List.of("--out");
      default -> {
        if (rSet == null) {
          throw new Largecat.UsageException("data prepare: unknown set '" + name
              + "' (fashion-mnist, kjv-nextword, glass, letter or detergent)");
        }
        yield List.of("--out", "--seed");
      }
    };
    CommandLine cl = new CommandLine("data prepare " + name, options, valued, List.of());
    Path dir = cl.requiredPath("--out");
    PreparedSet set = switch (name) {
      case "fashion-mnist" -> FashionMnist.prepare(cl.has("--source") ? cl.path("--source") : FashionMnist.DEFAULT_DIR);
      case "kjv-nextword" -> KjvNextWord.prepare();
      default -> rSet.prepare(cl.longValue("--seed", 1));
    };
    set.write(dir);
    out.println(set.summary() + "; wrote " + dir.resolve("train.txt") + ", test.txt, classes.txt, README.txt");
    err.println("source: " + set.source());
    return 0;
  }
}
