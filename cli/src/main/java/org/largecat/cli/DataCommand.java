package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetWriter;
import org.largecat.data.FactorizedSet;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ModelFile;
import org.largecat.model.ScoreModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code largecat data}: generated datasets ({@code synth}) and real ones ({@code prepare}). */
@Command(
    name = "data",
    description = "Writes datasets in the repository's text format.",
    subcommands = {DataCommand.Synth.class, PrepareCommand.class})
final class DataCommand {
  private DataCommand() {}

  @Command(
      name = "synth",
      description = "Writes a generated dataset, and the model that generated it.",
      subcommands = {DataCommand.ArToy.class, DataCommand.Softmax.class, CbSynthCommand.class})
  static final class Synth {
    private Synth() {}
  }

  @Command(
      name = "ar-toy",
      description = {
        "The A&R toy set (4.1): p_k proportional to U^2, no features.",
        "Writes the generating model to FILE.truth (a model file)."
      })
  static final class ArToy implements Callable<Integer> {
    private final PrintStream err;

    @Option(
        names = "--classes",
        paramLabel = "K",
        converter = OptionTypes.Count.class,
        defaultValue = "10000",
        description = "Classes (default: ${DEFAULT-VALUE}).")
    int classes;

    @Option(
        names = "--rows",
        paramLabel = "N",
        converter = OptionTypes.Count.class,
        defaultValue = "300000",
        description = "Examples (default: ${DEFAULT-VALUE}).")
    int rows;

    @Option(
        names = "--seed",
        paramLabel = "N",
        defaultValue = "1",
        description = "The random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        required = true,
        description = "The dataset file to write.")
    Path file;

    ArToy(Largecat.Streams streams) {
      this.err = streams.err();
    }

    @Override
    public Integer call() throws IOException {
      new OutputFiles()
          .writes("--out", file)
          .writes("the generating model", truthFile(file))
          .check();
      SyntheticSet set = SyntheticData.arToy(classes, rows, seed);
      return write(
          "ar-toy",
          set.data(),
          new LinearModel(Link.SOFTMAX, classes, 0, set.weights(), set.biases()),
          file,
          err);
    }
  }

  @Command(
      name = "softmax",
      description = {
        "x ~ N(0, I) (each entry kept with probability --density), y ~ softmax(Wx + b), W, b ~"
            + " N(0, scale^2); with --rank R, y ~ softmax(U V^T x + b), U (K x R), V (D x R) ~"
            + " N(0, scale^2), b ~ N(0, 1).",
        "Writes the generating model to FILE.truth (a model file)."
      })
  static final class Softmax implements Callable<Integer> {
    private final PrintStream err;

    @Spec CommandSpec spec;

    @Option(
        names = "--rows",
        paramLabel = "N",
        converter = OptionTypes.Count.class,
        defaultValue = "10000",
        description = "Examples (default: ${DEFAULT-VALUE}).")
    int rows;

    @Option(
        names = "--columns",
        paramLabel = "D",
        converter = OptionTypes.Count.class,
        defaultValue = "10",
        description = "Features (default: ${DEFAULT-VALUE}).")
    int columns;

    @Option(
        names = "--classes",
        paramLabel = "K",
        converter = OptionTypes.Count.class,
        defaultValue = "20",
        description = "Classes (default: ${DEFAULT-VALUE}).")
    int classes;

    @Option(
        names = "--scale",
        paramLabel = "X",
        converter = OptionTypes.PositiveNumber.class,
        defaultValue = "0.5",
        description = "The weights' standard deviation (default: ${DEFAULT-VALUE}).")
    double scale;

    @Option(
        names = "--density",
        paramLabel = "P",
        converter = OptionTypes.PositiveNumber.class,
        defaultValue = "1",
        description =
            "Each feature is nonzero with probability P; below 1 the set is sparse (default:"
                + " ${DEFAULT-VALUE}).")
    double density;

    @Option(
        names = "--seed",
        paramLabel = "N",
        defaultValue = "1",
        description = "The random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        required = true,
        description = "The dataset file to write.")
    Path file;

    @Option(
        names = "--test-rows",
        paramLabel = "M",
        converter = OptionTypes.Count.class,
        description = "Also M test examples from the same model, to --test-out.")
    Integer testRows;

    @Option(
        names = "--test-out",
        paramLabel = "FILE",
        description = "Where the --test-rows examples go.")
    Path testFile;

    @Option(
        names = "--rank",
        paramLabel = "R",
        converter = OptionTypes.Count.class,
        description = "Draw from a rank-R factorized softmax instead of a linear one.")
    Integer rank;

    Softmax(Largecat.Streams streams) {
      this.err = streams.err();
    }

    @Override
    public Integer call() throws IOException {
      if ((testRows == null) != (testFile == null)) {
        throw new ParameterException(
            spec.commandLine(), "give --test-rows and --test-out together, or neither");
      }
      if (density > 1) {
        throw new ParameterException(
            spec.commandLine(), "--density " + density + " must be at most 1");
      }
      new OutputFiles()
          .writes("--out", file)
          .writes("the generating model", truthFile(file))
          .writes("--test-out", testFile)
          .check();
      int test = testRows == null ? 0 : testRows;
      if ((long) rows + test > Integer.MAX_VALUE) {
        throw new ParameterException(
            spec.commandLine(), "--rows + --test-rows must be at most " + Integer.MAX_VALUE);
      }
      Dataset all;
      ScoreModel truth;
      if (rank == null) {
        SyntheticSet set =
            SyntheticData.linearSoftmax(rows + test, columns, classes, scale, density, seed);
        all = set.data();
        truth = new LinearModel(Link.SOFTMAX, classes, columns, set.weights(), set.biases());
      } else {
        FactorizedSet set =
            SyntheticData.factorizedSoftmax(
                Kernels.get(), rows + test, columns, classes, rank, scale, density, seed);
        all = set.data();
        truth =
            new FactorizedModel(
                Link.SOFTMAX, classes, columns, rank, set.inputs(), set.outputs(), set.biases());
      }
      if (test == 0) {
        return write("softmax", all, truth, file, err);
      }
      // One model, then the first rows for training and the rest for testing: a second run with
      // the same seed would draw the same rows again.
      Dataset held = all.subset(IntStream.range(rows, rows + test).toArray());
      write("softmax", all.subset(IntStream.range(0, rows).toArray()), truth, file, err);
      DatasetWriter.write(held, testFile);
      err.printf(
          "data synth softmax: wrote %d test examples from the same model to %s%n", test, testFile);
      return 0;
    }
  }

  /** Where the generating model of the set written to {@code file} goes. */
  private static Path truthFile(Path file) {
    return Path.of(file + ".truth");
  }

  /** Writes {@code data} to {@code file} and its generating model to {@code file}.truth. */
  private static int write(String name, Dataset data, ScoreModel truth, Path file, PrintStream err)
      throws IOException {
    DatasetWriter.write(data, file);
    Path truthFile = truthFile(file);
    ModelFile.write(truth, truthFile);
    err.printf(
        "data synth %s: wrote %d examples, D = %d, K = %d to %s, the generating model to %s%n",
        name, data.rows(), data.columns(), data.classes(), file, truthFile);
    return 0;
  }
}
