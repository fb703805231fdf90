package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.largecat.IoErrors;
import org.largecat.MemoryBudget;
import org.largecat.cb.CaviFit;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CbMetrics;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.Design;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.cb.Link;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetReader;
import org.largecat.data.ReadOptions;
import org.largecat.data.SparseFeatures;
import org.largecat.data.TextFormat;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code largecat cavi}: fits IB-CAVI (categorical-from-binary, Sec. 3.3) to a training file and
 * reports the ELBO per iteration, the BMA weight on CBC (Sec. 4) and, on the test file (or the
 * training file when none is given), the mean log-likelihood and accuracy of CBC, CBM and BMA, plus
 * the mean KL from the true probabilities when a {@code --truth} file gives them.
 */
@Command(
    name = "cavi",
    description = {
      "IB-CAVI for CB-probit / CB-logit: the ELBO per iteration, the BMA weight on"
          + " CBC, holdout log-likelihood and accuracy."
    })
final class CaviCommand implements Callable<Integer> {
  /** How far from 1 a row of true probabilities may sum. */
  static final double TRUTH_TOLERANCE = 1e-6;

  private final Largecat.Streams streams;

  @Option(
      names = "--train",
      paramLabel = "FILE",
      required = true,
      description = "The training set.")
  Path trainFile;

  @Option(
      names = "--test",
      paramLabel = "FILE",
      description = "The test set (default: the training set).")
  Path testFile;

  @Mixin FitOptions fitOptions;

  @Option(
      names = "--threads",
      paramLabel = "N",
      converter = OptionTypes.Count.class,
      description = "Worker threads (default: one per core).")
  int threads = Runtime.getRuntime().availableProcessors();

  @Option(
      names = "--truth",
      paramLabel = "FILE",
      description =
          "The evaluated rows' true probabilities (one line of K numbers per row), for the mean KL.")
  Path truthFile;

  @Option(names = "--json", description = "Print the results as JSON.")
  boolean json;

  /** The options of the fit that {@code cavi} and {@code spark cavi} share. */
  static final class FitOptions {
    @Option(
        names = "--link",
        paramLabel = "probit|logit",
        required = true,
        description = "The binary link.")
    Link link;

    @Option(names = "--diagonal", description = "A diagonal (mean-field) posterior covariance.")
    boolean diagonal;

    @Option(
        names = "--iterations",
        paramLabel = "T",
        converter = OptionTypes.Count.class,
        defaultValue = "200",
        description = "At most T iterations (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(
        names = "--tol",
        paramLabel = "X",
        converter = OptionTypes.NonNegativeNumber.class,
        defaultValue = "1e-6",
        description =
            "Stop when the ELBO's relative change is below X (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(
        names = "--samples",
        paramLabel = "S",
        converter = OptionTypes.Count.class,
        defaultValue = "10",
        description = "Monte Carlo samples for the model evidence (default: ${DEFAULT-VALUE}).")
    int samples;

    @Option(
        names = "--seed",
        paramLabel = "N",
        converter = OptionTypes.NonNegativeInteger.class,
        defaultValue = "1",
        description = "The random seed (default: ${DEFAULT-VALUE}).")
    int seed;

    @Option(
        names = "--prior-variance",
        paramLabel = "V",
        converter = OptionTypes.PositiveNumber.class,
        defaultValue = "1",
        description = "The weights' N(0, V) prior (default: ${DEFAULT-VALUE}).")
    double priorVariance;

    /** The IB-CAVI options, with {@code threads} worker threads. */
    CaviOptions options(int threads) {
      return new CaviOptions(link, diagonal, iterations, tolerance, threads);
    }

    /**
     * Refuses, before the fit, more samples than the heap can hold as S draws of the (M + 1) × K
     * weights: spark cavi holds them all at once, and a count beyond that would run without end.
     */
    void checkSamples(int columns, int classes) {
      long draws = MemoryBudget.saturatedProduct(samples, (long) columns + 1);
      MemoryBudget.require(
          MemoryBudget.saturatedProduct(
              MemoryBudget.saturatedProduct(draws, classes), Double.BYTES),
          "--samples "
              + samples
              + ": S draws of the (M + 1) × K weights, "
              + samples
              + " × "
              + (columns + 1)
              + " × "
              + classes,
          "give a smaller --samples");
    }

    /** The weights' prior for {@code columns} features and the intercept. */
    GaussianPrior prior(int columns) {
      return GaussianPrior.isotropic(columns + 1, priorVariance);
    }
  }

  CaviCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws IOException {
    PrintStream out = streams.out();
    PrintStream err = streams.err();
    CaviOptions options = fitOptions.options(threads);
    Link link = options.link();
    int samples = fitOptions.samples;
    Dataset train = read(trainFile, ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION));
    Dataset test =
        testFile != null
            ? read(
                testFile,
                ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION)
                    .withShape(train.columns(), train.classes()))
            : train;
    double[] truth = truthFile != null ? readTruth(truthFile, test.rows(), test.classes()) : null;
    // Checked before the fit: the CBC, CBM and BMA log-probabilities of every evaluated row.
    MemoryBudget.require(
        3L
            * Double.BYTES
            * MemoryBudget.arrayLength(
                "the evaluated rows' probabilities, N × K",
                Double.BYTES,
                test.rows(),
                test.classes()),
        "the CBC, CBM and BMA probabilities, 3 × N × K");
    fitOptions.checkSamples(train.columns(), train.classes());
    Kernels kernels = Kernels.get();
    GaussianPrior prior = fitOptions.prior(train.columns());
    long start = System.nanoTime();
    CaviFit fit = IbCavi.fit(train, prior, options, kernels);
    double fitSeconds = (System.nanoTime() - start) * 1e-9;
    CbPredictor predictor = new CbPredictor(fit.posterior(), kernels);
    CbPredictor.ModelEvidence evidence =
        predictor.evidence(
            Design.withIntercept(train.features(), kernels),
            train.labels(),
            samples,
            fitOptions.seed);
    CbPredictor.Predictions p = predictor.plugIn(Design.withIntercept(test.features(), kernels));
    double[] bma = CbPredictor.bmaLogProbabilities(p, evidence);
    int k = train.classes();
    double[][] logp = {p.cbc(), p.cbm(), bma};
    double[][] metrics = new double[3][3];
    for (int m = 0; m < 3; m++) {
      metrics[m][0] = CbMetrics.meanLogLikelihood(logp[m], k, test.labels());
      metrics[m][1] = CbMetrics.accuracy(logp[m], k, test.labels());
      metrics[m][2] = truth == null ? Double.NaN : CbMetrics.meanKl(truth, logp[m], k);
    }
    new Report(
            options,
            train.rows(),
            train.columns(),
            k,
            kernels.describeChoice(),
            options.threads() + " threads; " + kernels.describeChoice(),
            fit,
            fitSeconds,
            evidence,
            testFile != null ? "test" : "train",
            test.rows(),
            metrics,
            truth != null)
        .print(out, json);
    return 0;
  }

  /**
   * What a CAVI command reports: the fit ({@code where}: threads or Spark master, and the kernels;
   * {@code backend}: the kernels, for JSON), its BMA evidence, and per model (CBC, CBM, BMA) the
   * mean log-likelihood, accuracy and mean KL from the truth (NaN without) on the evaluated set.
   */
  record Report(
      CaviOptions options,
      long rows,
      int columns,
      int classes,
      String backend,
      String where,
      CaviFit fit,
      double fitSeconds,
      CbPredictor.ModelEvidence evidence,
      String evaluated,
      long evaluatedRows,
      double[][] metrics,
      boolean withTruth) {

    /** Prints the report as text or as one JSON line. */
    void print(PrintStream out, boolean json) {
      if (json) {
        JsonOutputs.ModelScores[] scores = new JsonOutputs.ModelScores[3];
        for (int m = 0; m < 3; m++) {
          scores[m] = new JsonOutputs.ModelScores(metrics[m][0], metrics[m][1], metrics[m][2]);
        }
        out.println(
            Json.line(
                new JsonOutputs.Cavi(
                    options.link().label(),
                    options.diagonal(),
                    Math.toIntExact(rows),
                    columns,
                    classes,
                    backend,
                    options.threads(),
                    fit.elbo(),
                    fit.finalElboPerCell(),
                    fit.iterations(),
                    fit.converged(),
                    fitSeconds,
                    fit.iterationSeconds(),
                    evidence.samples(),
                    evidence.logEvidenceCbc(),
                    evidence.logEvidenceCbm(),
                    evidence.weightCbc(),
                    evaluated,
                    scores[0],
                    scores[1],
                    scores[2])));
        return;
      }
      printFit(out, options, rows, columns, classes, where, fit, fitSeconds, evidence);
      String[] names = {"CBC", "CBM", "BMA"};
      out.printf(
          Locale.ROOT,
          "%s set, %d rows:%n%6s %20s %10s%s%n",
          evaluated,
          evaluatedRows,
          "model",
          "mean log-lik",
          "accuracy",
          withTruth ? String.format(Locale.ROOT, " %14s", "mean KL(true)") : "");
      for (int m = 0; m < 3; m++) {
        out.printf(
            Locale.ROOT,
            "%6s %20.6f %10.4f%s%n",
            names[m],
            metrics[m][0],
            metrics[m][1],
            withTruth ? String.format(Locale.ROOT, " %14.6f", metrics[m][2]) : "");
      }
    }
  }

  /**
   * Prints the fit: what ran ({@code where}: threads or Spark master, and the kernels), the ELBO
   * per iteration, whether it converged, and the BMA weight on CBC with its evidence bounds.
   */
  private static void printFit(
      PrintStream out,
      CaviOptions options,
      long rows,
      int columns,
      int k,
      String where,
      CaviFit fit,
      double fitSeconds,
      CbPredictor.ModelEvidence evidence) {
    out.printf(
        Locale.ROOT,
        "IB-CAVI %s (%s q(B)) on %d rows, %d features + intercept, %d classes; %s%n",
        options.link().label(),
        options.diagonal() ? "fully mean-field" : "full-covariance",
        rows,
        columns,
        k,
        where);
    out.printf(Locale.ROOT, "%9s %22s %16s %10s%n", "iteration", "ELBO", "ELBO / (N K)", "seconds");
    for (int t = 0; t < fit.elbo().length; t++) {
      out.printf(
          Locale.ROOT,
          "%9d %22.10f %16.10f %10s%n",
          t,
          fit.elbo()[t],
          fit.elbo()[t] / ((double) rows * k),
          t == 0 ? "" : String.format(Locale.ROOT, "%.4f", fit.iterationSeconds()[t - 1]));
    }
    out.printf(
        Locale.ROOT,
        "%s after %d iterations (stop when an iteration raises the ELBO by <= %.3g x |ELBO|), %.3f s%n",
        fit.converged() ? "converged" : "not converged",
        fit.iterations(),
        options.tolerance(),
        fitSeconds);
    out.printf(
        Locale.ROOT,
        "BMA weight on CBC: %.6f (log evidence bounds from %d samples: CBC %.4f, CBM %.4f)%n",
        evidence.weightCbc(),
        evidence.samples(),
        evidence.logEvidenceCbc(),
        evidence.logEvidenceCbm());
  }

  /** Reads a dataset; mostly-dense files get a dense design (gemm) rather than CSR products. */
  private static Dataset read(Path file, ReadOptions options) throws IOException {
    Dataset d = DatasetReader.read(file, options);
    if (d.features() instanceof SparseFeatures s
        && 2 * s.storedValues() >= (long) s.rows() * s.columns()) {
      return new Dataset(s.toDense(), d.labels(), d.classes());
    }
    return d;
  }

  /**
   * The true category probabilities of the evaluated rows: one line of K numbers per row, each row
   * a probability vector (finite, non-negative, summing to 1 within {@value #TRUTH_TOLERANCE}).
   */
  private static double[] readTruth(Path file, int rows, int classes) throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw IoErrors.explain(file, "cannot read", e);
    }
    if (lines.size() != rows) {
      throw new IllegalArgumentException(
          file + ": " + lines.size() + " lines of true probabilities for " + rows + " rows");
    }
    double[] p =
        new double
            [MemoryBudget.arrayLength(
                (long) rows * classes, Double.BYTES, "true probabilities, rows × K")];
    for (int i = 0; i < rows; i++) {
      String[] t = lines.get(i).trim().split("\\s+");
      if (t.length != classes) {
        throw new IllegalArgumentException(
            file + ": line " + (i + 1) + " has " + t.length + " numbers, expected " + classes);
      }
      double sum = 0;
      for (int c = 0; c < classes; c++) {
        double v;
        try {
          v = Double.parseDouble(t[c]);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              file + ": line " + (i + 1) + ": '" + t[c] + "' is not a number");
        }
        if (!(v >= 0 && v < Double.POSITIVE_INFINITY)) {
          throw new IllegalArgumentException(
              file
                  + ": line "
                  + (i + 1)
                  + ": probability "
                  + (c + 1)
                  + " is "
                  + t[c]
                  + "; a probability is finite and >= 0");
        }
        p[i * classes + c] = v;
        sum += v;
      }
      if (Math.abs(sum - 1) > TRUTH_TOLERANCE) {
        throw new IllegalArgumentException(
            file
                + ": line "
                + (i + 1)
                + ": the probabilities sum to "
                + sum
                + ", not 1 (within "
                + TRUTH_TOLERANCE
                + ")");
      }
    }
    return p;
  }
}
