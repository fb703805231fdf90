package org.largecat.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.largecat.cb.CbSimulation;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetWriter;

/**
 * {@code largecat data synth cb}: the simulated data of categorical-from-binary App. G.1.1, split
 * into training and test files, with the test rows' true softmax probabilities for the mean-KL metric
 * of {@code largecat cavi --truth}. Standard deviations are given (the paper's variances are
 * sigma_low^2 = 0.001, sigma_int^2 = 0.25, sigma_high^2 in {0.1, 4.0}).
 */
final class CbSynthCommand {
  static final String USAGE = """
             largecat data synth cb --classes K --covariates M --rows N --sigma-high S [--sigma-low S] [--sigma-int S]
                           [--seed N] [--test-fraction F] --out TRAIN [--test-out TEST] [--truth-out FILE]
                                                       App. G.1.1 data: softmax with an intercept, S = floor(M/K)
                                                       covariates predictive of each category
      """;

  private CbSynthCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    CommandLine cl = new CommandLine("data synth cb", args,
        Set.of("--classes", "--covariates", "--rows", "--sigma-high", "--sigma-low", "--sigma-int", "--seed",
            "--test-fraction", "--out", "--test-out", "--truth-out"), Set.of());
    int k = cl.integer("--classes", 0, 2);
    int m = cl.integer("--covariates", 0, 0);
    int n = cl.integer("--rows", 0, 1);
    if (!cl.has("--classes") || !cl.has("--covariates") || !cl.has("--rows")) {
      throw new Largecat.UsageException("data synth cb: --classes, --covariates and --rows are required");
    }
    double sigmaHigh = Double.parseDouble(cl.required("--sigma-high"));
    double testFraction = cl.number("--test-fraction", cl.has("--test-out") ? 0.2 : 0);
    if (testFraction >= 1) {
      throw new Largecat.UsageException("data synth cb: --test-fraction must be below 1");
    }
    if (testFraction > 0 && !cl.has("--test-out")) {
      throw new Largecat.UsageException("data synth cb: --test-fraction needs --test-out");
    }
    CbSimulation sim;
    try {
      sim = CbSimulation.generate(n, k, m, sigmaHigh, cl.number("--sigma-low", Math.sqrt(0.001)),
          cl.number("--sigma-int", 0.5), cl.integer("--seed", 1, 0));
    } catch (IllegalArgumentException e) {
      err.println("largecat data synth cb: " + e.getMessage());
      return 2;
    }
    int testRows = (int) Math.round(n * testFraction);
    int trainRows = n - testRows;
    Dataset all = sim.data();
    Dataset train = all.subset(range(0, trainRows));
    Dataset evaluated = testRows > 0 ? all.subset(range(trainRows, n)) : train;
    DatasetWriter.write(train, Path.of(cl.required("--out")));
    if (testRows > 0) {
      DatasetWriter.write(evaluated, Path.of(cl.string("--test-out", null)));
    }
    if (cl.has("--truth-out")) {
      double[] p = sim.trueProbabilities(evaluated.features());
      try (BufferedWriter w = Files.newBufferedWriter(Path.of(cl.string("--truth-out", null)), StandardCharsets.UTF_8)) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < evaluated.rows(); i++) {
          line.setLength(0);
          for (int c = 0; c < k; c++) {
            line.append(c == 0 ? "" : " ").append(p[i * k + c]);
          }
          w.append(line).append('\n');
        }
      }
    }
    out.printf(Locale.ROOT, "wrote %d training rows%s (K = %d, M = %d, sigma_high = %s)%n", trainRows,
        testRows > 0 ? " and " + testRows + " test rows" : "", k, m, sigmaHigh);
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
