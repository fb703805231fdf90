package org.largecat.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import org.largecat.cb.CaviFit;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CbMetrics;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.CbSimulation;
import org.largecat.cb.Design;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.cb.Link;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;

/**
 * categorical-from-binary Table G.1 and Figure 1: how well the BMA of Sec. 4 picks the CB
 * likelihood (CBC or CBM) that an IB-CAVI posterior should be read through. Data from the softmax
 * simulator of App. G.1.1 (sigma_low^2 = 0.001, sigma_int^2 = 0.25) over the grid of App. G.2.1:
 * sigma_high in {0.1, 2.0} (the table's values; the text's "sigma_high^2 in {0.1, 4.0}" agrees on
 * the second only), K in {3, 10}, M in {K, 2K}, N = b P with P = K (M + 1) and b in {10, 20, 40,
 * 80, 160}; 80/20 split, a N(0, I) prior, IB-CAVI to a relative ELBO rise of 1e-6 (the paper's
 * stopping rule, a mean-ELBO drop of at most 0.1, would stop after an iteration or two), BMA
 * weights from S = 10 posterior draws. Each row gives the means over the seeds of the weight on CBC
 * and of the mean KL from the true probabilities to the CBC, CBM and BMA predictions (plug-in
 * posterior mean, as App. G.2.1), how many seeds' fits converged before the most iterations, how
 * many seeds put the weight on CBC, and on how many the favoured model is the one closer to the
 * truth. The paper ran logit with one dataset per cell; its figures stand beside the logit rows (a
 * cell the text extraction lost shows '-').
 */
public final class CbBma {
  /** Figure 1's axes: N on a log scale. */
  private static final Plots.Axes LOG_N = new Plots.Axes(true, false, Double.NaN, null);

  private static final double[] SIGMA_HIGH = {0.1, 2.0};
  private static final int[] CLASSES = {3, 10};
  private static final int[] COVARIATE_MULTIPLES = {1, 2};
  private static final int[] SIZE_MULTIPLES = {10, 20, 40, 80, 160};
  private static final int EVIDENCE_SAMPLES = 10;

  /** Datasets per cell in the full run (the paper drew one). */
  static final int FULL_SEEDS = 10;

  /**
   * Table G.1 as extracted: N, K, M, sigma_high, w_CBC, then the mean KL of CBM, CBC and BMA (NaN
   * where the extraction lost the cell).
   */
  private static final double[][] PAPER = {
    {120, 3, 3, 0.1, 0.021, 0.016, Double.NaN, 0.015},
    {120, 3, 3, 2.0, 0.861, 0.067, 0.046, 0.040},
    {240, 3, 3, 0.1, 0.005, 0.031, 0.065, 0.040},
    {240, 3, 3, 2.0, 0.999, 0.043, 0.027, 0.026},
    {480, 3, 3, 0.1, 0.002, 0.007, 0.021, 0.007},
    {480, 3, 3, 2.0, 1.000, 0.023, 0.018, 0.018},
    {960, 3, 3, 0.1, 0.000, 0.002, Double.NaN, 0.002},
    {960, 3, 3, 2.0, 1.000, Double.NaN, 0.020, 0.020},
    {1920, 3, 3, 0.1, 0.000, 0.002, Double.NaN, 0.002},
    {1920, 3, 3, 2.0, 1.000, Double.NaN, 0.018, 0.018},
    {210, 3, 6, 0.1, 0.001, Double.NaN, 0.069, 0.030},
    {210, 3, 6, 2.0, 1.000, Double.NaN, 0.093, 0.093},
    {420, 3, 6, 0.1, 0.001, Double.NaN, 0.030, 0.016},
    {420, 3, 6, 2.0, 1.000, 0.090, Double.NaN, 0.030},
    {840, 3, 6, 0.1, 0.000, 0.009, Double.NaN, 0.009},
    {840, 3, 6, 2.0, 1.000, 0.071, 0.023, 0.023},
    {1680, 3, 6, 0.1, 0.000, 0.007, 0.025, 0.007},
    {1680, 3, 6, 2.0, 1.000, 0.077, 0.018, 0.018},
    {3360, 3, 6, 0.1, 0.000, 0.001, 0.017, 0.001},
    {3360, 3, 6, 2.0, 1.000, 0.076, Double.NaN, 0.014},
    {1100, 10, 10, 0.1, 0.002, 0.042, 0.054, 0.042},
    {1100, 10, 10, 2.0, 1.000, 0.114, 0.057, 0.057},
    {2200, 10, 10, 0.1, 0.008, 0.028, 0.034, 0.028},
    {2200, 10, 10, 2.0, 1.000, 0.098, 0.052, 0.052},
    {4400, 10, 10, 0.1, 0.023, 0.011, 0.013, 0.011},
    {4400, 10, 10, 2.0, 1.000, 0.079, 0.017, 0.017},
    {8800, 10, 10, 0.1, 0.925, 0.008, 0.008, 0.008},
    {8800, 10, 10, 2.0, 1.000, 0.074, 0.017, 0.017},
    {17600, 10, 10, 0.1, 1.000, 0.004, 0.004, 0.004},
    {17600, 10, 10, 2.0, 1.000, 0.073, 0.017, 0.017},
    {2100, 10, 20, 0.1, 0.005, 0.041, 0.051, 0.041},
    {2100, 10, 20, 2.0, 1.000, 0.135, 0.061, 0.061},
    {4200, 10, 20, 0.1, 0.000, 0.021, 0.026, 0.021},
    {4200, 10, 20, 2.0, 1.000, 0.128, 0.053, 0.053},
    {8400, 10, 20, 0.1, 0.006, 0.012, 0.015, 0.012},
    {8400, 10, 20, 2.0, 1.000, 0.111, 0.028, 0.028},
    {16800, 10, 20, 0.1, 1.000, 0.006, Double.NaN, 0.007},
    {16800, 10, 20, 2.0, 1.000, 0.109, Double.NaN, 0.023},
    {33600, 10, 20, 0.1, 1.000, 0.004, 0.004, 0.004},
    {33600, 10, 20, 2.0, 1.000, 0.103, 0.022, 0.022}
  };

  private CbBma() {}

  /** One cell of the grid. */
  private record Cell(double sigmaHigh, int classes, int covariates, int sizeMultiple) {
    int rows() {
      return sizeMultiple * classes * (covariates + 1);
    }
  }

  /** Means over the seeds of one cell: weight on CBC and mean KL of CBC, CBM and BMA. */
  private record Outcome(double weightCbc, double klCbc, double klCbm, double klBma) {}

  /**
   * Full: both links, the whole grid, {@value #FULL_SEEDS} seeds. Quick: logit on Figure 1's K = 3,
   * M = 6 (every b), one seed.
   */
  static ExperimentResult run(ExperimentSettings settings) throws IOException {
    boolean quick = settings.quick();
    Link[] links = quick ? new Link[] {Link.LOGIT} : new Link[] {Link.LOGIT, Link.PROBIT};
    int seeds = quick ? 1 : FULL_SEEDS;
    List<Cell> cells = new ArrayList<>();
    for (double sigma : SIGMA_HIGH) {
      for (int k : quick ? new int[] {3} : CLASSES) {
        for (int a : quick ? new int[] {2} : COVARIATE_MULTIPLES) {
          for (int b : SIZE_MULTIPLES) {
            cells.add(new Cell(sigma, k, a * k, b));
          }
        }
      }
    }
    int maxIterations = settings.iterations(500, 500);
    PrintStream err = settings.err();
    err.printf(
        "cb-bma: %d cells x %d link(s) x %d seed(s); IB-CAVI to a relative rise of 1e-6 (at most %d"
            + " iterations), %d draws for the BMA weights%n",
        cells.size(), links.length, seeds, maxIterations, EVIDENCE_SAMPLES);
    ResultTable table =
        new ResultTable(
            "cb-bma",
            List.of(
                "link",
                "sigma_high",
                "k",
                "m",
                "n",
                "seeds",
                "iterations",
                "seeds_converged",
                "w_cbc",
                "seeds_on_cbc",
                "closer_mean_kl",
                "seeds_favourite_closer",
                "kl_cbc",
                "kl_cbm",
                "kl_bma",
                "kl_bma_max",
                "paper_w_cbc",
                "paper_kl_cbc",
                "paper_kl_cbm",
                "paper_kl_bma"));
    Kernels kernels = Kernels.get();
    Map<Link, Map<Cell, Outcome>> outcomes = new LinkedHashMap<>();
    for (Link link : links) {
      Map<Cell, Outcome> byCell = new LinkedHashMap<>();
      outcomes.put(link, byCell);
      CaviOptions options =
          CaviOptions.of(link)
              .withIterations(maxIterations)
              .withTolerance(1e-6)
              .withThreads(settings.threads());
      for (Cell cell : cells) {
        long start = System.nanoTime();
        double iterations = 0;
        double[] sums = new double[4];
        double klBmaMax = 0;
        int converged = 0;
        int onCbc = 0;
        int favouriteCloser = 0;
        for (int seed = 0; seed < seeds; seed++) {
          CbSimulation sim =
              CbSimulation.generate(
                  cell.rows(),
                  cell.classes(),
                  cell.covariates(),
                  cell.sigmaHigh(),
                  Math.sqrt(0.001),
                  0.5,
                  1000L * cell.classes()
                      + 10L * cell.covariates()
                      + cell.sizeMultiple()
                      + 100_000L * seed);
          int trainRows = (int) Math.round(0.8 * cell.rows());
          Dataset train = sim.data().subset(IntStream.range(0, trainRows).toArray());
          Dataset test = sim.data().subset(IntStream.range(trainRows, cell.rows()).toArray());
          CaviFit fit =
              IbCavi.fit(
                  train, GaussianPrior.isotropic(cell.covariates() + 1, 1), options, kernels);
          CbPredictor predictor = new CbPredictor(fit.posterior(), kernels);
          CbPredictor.ModelEvidence evidence =
              predictor.evidence(
                  Design.withIntercept(train.features(), kernels),
                  train.labels(),
                  EVIDENCE_SAMPLES,
                  7);
          CbPredictor.Predictions p =
              predictor.plugIn(Design.withIntercept(test.features(), kernels));
          double[] truth = sim.trueProbabilities(test.features());
          int k = cell.classes();
          double klCbc = CbMetrics.meanKl(truth, p.cbc(), k);
          double klCbm = CbMetrics.meanKl(truth, p.cbm(), k);
          double klBma = CbMetrics.meanKl(truth, CbPredictor.bmaLogProbabilities(p, evidence), k);
          double w = evidence.weightCbc();
          iterations += fit.iterations();
          converged += fit.converged() ? 1 : 0;
          sums[0] += w;
          sums[1] += klCbc;
          sums[2] += klCbm;
          sums[3] += klBma;
          klBmaMax = Math.max(klBmaMax, klBma);
          onCbc += w > 0.5 ? 1 : 0;
          favouriteCloser += (w > 0.5) == (klCbc < klCbm) ? 1 : 0;
        }
        Outcome o = new Outcome(sums[0] / seeds, sums[1] / seeds, sums[2] / seeds, sums[3] / seeds);
        byCell.put(cell, o);
        double[] paper = link == Link.LOGIT ? paper(cell) : null;
        table.add(
            link.label(),
            cell.sigmaHigh(),
            cell.classes(),
            cell.covariates(),
            cell.rows(),
            seeds,
            iterations / seeds,
            converged,
            o.weightCbc(),
            onCbc,
            o.klCbc() < o.klCbm() ? "CBC" : "CBM",
            favouriteCloser,
            o.klCbc(),
            o.klCbm(),
            o.klBma(),
            klBmaMax,
            paperValue(paper, 4),
            paperValue(paper, 6),
            paperValue(paper, 5),
            paperValue(paper, 7));
        err.printf(
            "  cb-bma %s sigma_high %.1f K %d M %d N %d: w_CBC %.3f, KL CBC %.4f CBM %.4f BMA %.4f (%.1f s)%n",
            link.label(),
            cell.sigmaHigh(),
            cell.classes(),
            cell.covariates(),
            cell.rows(),
            o.weightCbc(),
            o.klCbc(),
            o.klCbm(),
            o.klBma(),
            (System.nanoTime() - start) * 1e-9);
      }
    }
    List<Path> figures =
        new ArrayList<>(figureOne(outcomes.get(Link.LOGIT), cells, settings.out()));
    figures.addAll(weights(outcomes, cells, settings.out()));
    return ExperimentResult.of(table, figures);
  }

  /**
   * Figure 1: mean KL of CBC, CBM and BMA against N at K = 3, M = 6 (logit), one panel per
   * sigma_high.
   */
  private static List<Path> figureOne(Map<Cell, Outcome> logit, List<Cell> cells, Path out)
      throws IOException {
    List<Plots.Panel> panels = new ArrayList<>();
    for (double sigma : SIGMA_HIGH) {
      List<Cell> line =
          cells.stream()
              .filter(c -> c.sigmaHigh() == sigma && c.classes() == 3 && c.covariates() == 6)
              .toList();
      Map<String, double[][]> series = new LinkedHashMap<>();
      series.put("CBC-logit", points(line, c -> logit.get(c).klCbc()));
      series.put("CBM-logit", points(line, c -> logit.get(c).klCbm()));
      series.put("BMA", points(line, c -> logit.get(c).klBma()));
      series.put(
          "paper BMA (Table G.1)", points(line, c -> paper(c) == null ? Double.NaN : paper(c)[7]));
      panels.add(
          new Plots.Panel(
              String.format(Locale.ROOT, "K = 3, M = 6, sigma_high = %.1f (Figure 1)", sigma),
              "N (log scale)",
              "mean KL(true || predicted), test set",
              series,
              LOG_N,
              true));
    }
    return Plots.panels(panels, 1, out.resolve("cb-bma-figure1"));
  }

  /** The BMA weight on CBC against N, one line per (link, K, M), one panel per sigma_high. */
  private static List<Path> weights(
      Map<Link, Map<Cell, Outcome>> outcomes, List<Cell> cells, Path out) throws IOException {
    List<Plots.Panel> panels = new ArrayList<>();
    for (double sigma : SIGMA_HIGH) {
      Map<String, double[][]> series = new LinkedHashMap<>();
      for (Map.Entry<Link, Map<Cell, Outcome>> e : outcomes.entrySet()) {
        for (int k : CLASSES) {
          for (int a : COVARIATE_MULTIPLES) {
            List<Cell> line =
                cells.stream()
                    .filter(
                        c -> c.sigmaHigh() == sigma && c.classes() == k && c.covariates() == a * k)
                    .toList();
            if (!line.isEmpty()) {
              series.put(
                  e.getKey().label() + " K=" + k + " M=" + a * k,
                  points(line, c -> e.getValue().get(c).weightCbc()));
            }
          }
        }
      }
      panels.add(
          new Plots.Panel(
              String.format(Locale.ROOT, "BMA weight on CBC, sigma_high = %.1f", sigma),
              "N (log scale)",
              "w_CBC (mean over seeds)",
              series,
              LOG_N,
              true));
    }
    return Plots.panels(panels, 1, out.resolve("cb-bma-weight"));
  }

  /** (N, value) for the cells in order, dropping cells without a value. */
  private static double[][] points(List<Cell> line, ToDoubleFunction<Cell> value) {
    List<double[]> xy = new ArrayList<>();
    for (Cell c : line) {
      double v = value.applyAsDouble(c);
      if (!Double.isNaN(v)) {
        xy.add(new double[] {c.rows(), v});
      }
    }
    return new double[][] {
      xy.stream().mapToDouble(p -> p[0]).toArray(), xy.stream().mapToDouble(p -> p[1]).toArray()
    };
  }

  /** The paper's row for the cell, or null. */
  private static double[] paper(Cell cell) {
    for (double[] row : PAPER) {
      if (row[0] == cell.rows()
          && row[1] == cell.classes()
          && row[2] == cell.covariates()
          && row[3] == cell.sigmaHigh()) {
        return row;
      }
    }
    return null;
  }

  private static double paperValue(double[] row, int column) {
    return row == null ? Double.NaN : row[column];
  }
}
