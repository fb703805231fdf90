package org.largecat.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.largecat.AtomicWrite;
import org.largecat.cb.CbSimulation;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code largecat data synth cb}: the simulated data of categorical-from-binary App. G.1.1, split
 * into training and test files, with the test rows' true softmax probabilities for the mean-KL
 * metric of {@code largecat cavi --truth}. Standard deviations are given (the paper's variances are
 * sigma_low^2 = 0.001, sigma_int^2 = 0.25, sigma_high^2 in {0.1, 4.0}).
 */
@Command(
    name = "cb",
    description = {
      "App. G.1.1 data: softmax with an intercept, S = floor(M/K) covariates"
          + " predictive of each category."
    })
final class CbSynthCommand implements Callable<Integer> {
  private final Largecat.Streams streams;

  @Spec CommandSpec spec;

  @Option(
      names = "--classes",
      paramLabel = "K",
      required = true,
      description = "Categories, at least 2.")
  int k;

  @Option(
      names = "--covariates",
      paramLabel = "M",
      required = true,
      converter = OptionTypes.NonNegativeInteger.class)
  int m;

  @Option(names = "--rows", paramLabel = "N", required = true, converter = OptionTypes.Count.class)
  int n;

  @Option(
      names = "--sigma-high",
      paramLabel = "S",
      required = true,
      converter = OptionTypes.NonNegativeNumber.class,
      description = "The predictive covariates' weights' standard deviation.")
  double sigmaHigh;

  @Option(
      names = "--sigma-low",
      paramLabel = "S",
      converter = OptionTypes.NonNegativeNumber.class,
      description = "The other weights' standard deviation (default: sqrt(0.001)).")
  double sigmaLow = Math.sqrt(0.001);

  @Option(
      names = "--sigma-int",
      paramLabel = "S",
      converter = OptionTypes.NonNegativeNumber.class,
      defaultValue = "0.5",
      description = "The intercepts' standard deviation (default: ${DEFAULT-VALUE}).")
  double sigmaInt;

  @Option(
      names = "--seed",
      paramLabel = "N",
      converter = OptionTypes.NonNegativeInteger.class,
      defaultValue = "1",
      description = "The random seed (default: ${DEFAULT-VALUE}).")
  int seed;

  @Option(
      names = "--test-fraction",
      paramLabel = "F",
      converter = OptionTypes.NonNegativeNumber.class,
      description =
          "The fraction of rows held out for testing (default: 0.2 with --test-out, else 0).")
  Double testFractionGiven;

  @Option(
      names = "--out",
      paramLabel = "TRAIN",
      required = true,
      description = "The training file to write.")
  Path trainFile;

  @Option(names = "--test-out", paramLabel = "TEST", description = "The test file to write.")
  Path testFile;

  @Option(
      names = "--truth-out",
      paramLabel = "FILE",
      description = "The evaluated rows' true probabilities, for 'largecat cavi --truth'.")
  Path truthFile;

  CbSynthCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws IOException {
    PrintStream out = streams.out();
    PrintStream err = streams.err();
    if (k < 2) {
      throw new ParameterException(spec.commandLine(), "--classes " + k + " must be >= 2");
    }
    double testFraction =
        testFractionGiven != null ? testFractionGiven : testFile != null ? 0.2 : 0;
    if (testFraction >= 1) {
      throw new ParameterException(spec.commandLine(), "--test-fraction must be below 1");
    }
    if (testFraction > 0 && testFile == null) {
      throw new ParameterException(spec.commandLine(), "--test-fraction needs --test-out");
    }
    new OutputFiles()
        .writes("--out", trainFile)
        .writes("--test-out", testFile)
        .writes("--truth-out", truthFile)
        .check();
    CbSimulation sim;
    try {
      sim = CbSimulation.generate(n, k, m, sigmaHigh, sigmaLow, sigmaInt, seed);
    } catch (IllegalArgumentException e) {
      err.println("largecat data synth cb: " + e.getMessage());
      return 2;
    }
    int testRows = (int) Math.round(n * testFraction);
    int trainRows = n - testRows;
    Dataset all = sim.data();
    Dataset train = all.subset(range(0, trainRows));
    Dataset evaluated = testRows > 0 ? all.subset(range(trainRows, n)) : train;
    DatasetWriter.write(train, trainFile);
    if (testRows > 0) {
      DatasetWriter.write(evaluated, testFile);
    }
    if (truthFile != null) {
      double[] p = sim.trueProbabilities(evaluated.features());
      int rows = evaluated.rows();
      AtomicWrite.write(
          truthFile,
          raw -> {
            BufferedWriter w =
                new BufferedWriter(new OutputStreamWriter(raw, StandardCharsets.UTF_8));
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < rows; i++) {
              line.setLength(0);
              for (int c = 0; c < k; c++) {
                line.append(c == 0 ? "" : " ").append(p[i * k + c]);
              }
              w.append(line).append('\n');
            }
            w.flush();
          });
    }
    out.printf(
        Locale.ROOT,
        "wrote %d training rows%s (K = %d, M = %d, sigma_high = %s)%n",
        trainRows,
        testRows > 0 ? " and " + testRows + " test rows" : "",
        k,
        m,
        sigmaHigh);
    return 0;
  }

  private static int[] range(int from, int to) {
    int[] r = new int[to - from];
    for (int i = 0; i < r.length; i++) {
      r[i] = from + i;
    }
    return r;
  }
}
