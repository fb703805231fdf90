package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.largecat.AtomicWrite;
import org.largecat.prepare.FashionMnist;
import org.largecat.prepare.KjvNextWord;
import org.largecat.prepare.PreparedSet;
import org.largecat.prepare.RDataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code largecat data prepare NAME --out DIR}: converts a real dataset installed from a Debian
 * package into the repository's text format with a training / test split (see {@link PreparedSet});
 * a missing package is an error naming the line that installs it.
 */
@Command(
    name = "prepare",
    description = {
      "Converts a real set from its Debian package (dataset-fashion-mnist;"
          + " bible-kjv; r-cran-mlbench for glass and letter; r-cran-mnp) to DIR/train.txt, test.txt, classes.txt and"
          + " README.txt (the recipe, N, D, K, split and package version)."
    })
final class PrepareCommand implements Callable<Integer> {
  private final Largecat.Streams streams;

  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "fashion-mnist|kjv-nextword|glass|letter|detergent",
      description = "The set.")
  String name;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      required = true,
      description = "The directory to write.")
  Path dir;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "The seed of the glass and detergent splits (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(
      names = "--source",
      paramLabel = "DIR",
      description = "fashion-mnist's IDX directory (default: ${DEFAULT-VALUE}).")
  Path source = FashionMnist.DEFAULT_DIR;

  PrepareCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws IOException {
    PrintStream out = streams.out();
    PrintStream err = streams.err();
    RDataset rSet = RDataset.byName(name);
    List<String> options =
        switch (name) {
          case "fashion-mnist" -> List.of("--out", "--source");
          case "kjv-nextword", "letter" -> List.of("--out");
          default -> {
            if (rSet == null) {
              throw new ParameterException(
                  spec.commandLine(),
                  "unknown set '"
                      + name
                      + "' (fashion-mnist, kjv-nextword, glass, letter or detergent)");
            }
            yield List.of("--out", "--seed");
          }
        };
    for (OptionSpec given : spec.commandLine().getParseResult().matchedOptions()) {
      if (!options.contains(given.longestName())) {
        throw new ParameterException(
            spec.commandLine(), given.longestName() + " does not apply to " + name);
      }
    }
    AtomicWrite.createDirectories(dir);
    OutputFiles written = new OutputFiles();
    for (String file : PreparedSet.FILES) {
      written.writes("--out", dir.resolve(file));
    }
    written.check();
    PreparedSet set =
        switch (name) {
          case "fashion-mnist" -> FashionMnist.prepare(source);
          case "kjv-nextword" -> KjvNextWord.prepare();
          default -> rSet.prepare(seed);
        };
    set.write(dir);
    out.println(
        set.summary()
            + "; wrote "
            + dir.resolve("train.txt")
            + ", test.txt, classes.txt, README.txt");
    err.println("source: " + set.source());
    return 0;
  }
}
