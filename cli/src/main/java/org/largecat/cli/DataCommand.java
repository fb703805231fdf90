package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.largecat.data.DatasetWriter;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ModelFile;

/** {@code largecat data synth}: writes generated datasets in the repository's text format, and their truth. */
final class DataCommand {
  static final String USAGE = """
             largecat data synth ar-toy [--classes K] [--rows N] [--seed N] --out FILE
                                                       the A&R toy set (§4.1): p_k ∝ U², no features
             largecat data synth softmax [--rows N] [--columns D] [--classes K] [--scale X] [--seed N] --out FILE
                                                       x ~ N(0, I), y ~ softmax(Wx + b), W, b ~ N(0, scale²);
                                                       both write the generating model to FILE.truth (a model file)
      """ + CbSynthCommand.USAGE + PrepareCommand.USAGE;

  private DataCommand() {}

  static int run(String[] rest, PrintStream out, PrintStream err) throws IOException {
    if (rest.length > 0 && rest[0].equals("prepare")) {
      return PrepareCommand.run(Arrays.copyOfRange(rest, 1, rest.length), out, err);
    }
    if (rest.length < 2 || !rest[0].equals("synth")) {
      throw new Largecat.UsageException("data: expected 'data synth ar-toy|softmax|cb ...' or 'data prepare NAME ...'");
    }
    String name = rest[1];
    String[] options = Arrays.copyOfRange(rest, 2, rest.length);
    if (name.equals("cb")) {
      return CbSynthCommand.run(options, out, err);
    }
    List<String> valued = switch (name) {
      case "ar-toy" -> List.of("--classes", "--rows", "--seed", "--out");
      case "softmax" -> List.of("--rows", "--columns", "--classes", "--scale", "--seed", "--out");
      default -> throw new Largecat.UsageException("data synth: unknown set '" + name + "' (ar-toy, softmax or cb)");
    };
    CommandLine args = new CommandLine("data synth " + name, options, valued, List.of());
    Path file = args.requiredPath("--out");
    SyntheticSet set = name.equals("ar-toy")
        ? SyntheticData.arToy(args.integer("--classes", 10_000, 1), args.integer("--rows", 300_000, 1), args.longValue("--seed", 1))
        : SyntheticData.linearSoftmax(args.integer("--rows", 10_000, 1), args.integer("--columns", 10, 1),
            args.integer("--classes", 20, 1), args.positive("--scale", 0.5), args.longValue("--seed", 1));
    DatasetWriter.write(set.data(), file);
    Path truth = Path.of(file + ".truth");
    ModelFile.write(new LinearModel(Link.SOFTMAX, set.data().classes(), set.data().columns(), set.weights(), set.biases()), truth);
    err.printf("data synth %s: wrote %d examples, D = %d, K = %d to %s, the generating model to %s%n", name,
        set.data().rows(), set.data().columns(), set.data().classes(), file, truth);
    return 0;
  }
}
