package org.largecat.cb;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.largecat.kernel.Kernels;
import org.largecat.special.Logistic;

/**
 * Predictions from a fitted q(B) under both CB likelihoods and their Bayesian model average (Sec.
 * 4).
 *
 * <p>BMA weights (Eq. 4.0.2) come from Monte-Carlo estimates of each model's evidence bound log
 * p_c(y) >= (1/S) sum_s log p_c(y | B^s) - KL(q || pi), B^s ~ q (Eq. 3.2.1; the extracted text of
 * Sec. 4 shows "+ KL", a sign slip). The KL term is the same for CBC and CBM, so with the uniform
 * model prior w_CBC = sigma(log p_CBC(y) - log p_CBM(y)), taken in log space so that neither weight
 * rounds to a log of 0. Predictive probabilities substitute the posterior mean into Eqs. 2.4.1 /
 * 2.4.2 (as App. G.2.1 does); {@link #predictiveDraws} gives T draws B^t ~ q for intervals. Rows
 * are cut into chunks run in parallel on the common fork-join pool; every sum is taken in chunk
 * order, so a seed gives the same numbers on any number of cores.
 */
public final class CbPredictor {
  /**
   * Rows per chunk: a call on at most this many rows runs on the caller's thread alone, as a Spark
   * task's must (the executor already runs one task per core).
   */
  public static final int ROW_CHUNK = 256;

  private final CbPosterior posterior;
  private final Kernels kernels;

  public CbPredictor(CbPosterior posterior, Kernels kernels) {
    this.posterior = posterior;
    this.kernels = kernels;
  }

  /** Log-probabilities of every category for every row, N x K row-major, under CBC and CBM. */
  public record Predictions(int rows, int categories, double[] cbc, double[] cbm) {
    public Predictions {
      java.util.Objects.requireNonNull(cbc, "predictions: cbc is null");
      java.util.Objects.requireNonNull(cbm, "predictions: cbm is null");
      long cells = (long) rows * categories;
      if (rows < 0 || categories < 1 || cbc.length != cells || cbm.length != cells) {
        throw new IllegalArgumentException(
            "predictions of "
                + rows
                + " rows x "
                + categories
                + " categories need two arrays of "
                + cells
                + " elements; got "
                + cbc.length
                + " and "
                + cbm.length);
      }
    }

    /**
     * Zeroed storage for rows x categories predictions, to be filled (and refilled) by the
     * predictor.
     */
    public static Predictions allocate(int rows, int categories) {
      int cells = Math.multiplyExact(rows, categories);
      return new Predictions(rows, categories, new double[cells], new double[cells]);
    }
  }

  /**
   * Monte-Carlo evidence estimates (with S posterior samples) and the BMA weight on CBC.
   *
   * @param logEvidenceCbc (1/S) sum_s log p_CBC(y | B^s) - KL(q || pi)
   * @param logEvidenceCbm the same for CBM
   */
  public record ModelEvidence(double logEvidenceCbc, double logEvidenceCbm, int samples) {
    /** log w_CBC with pi_CBC = pi_CBM = 1/2 (Eq. 4.0.2). */
    public double logWeightCbc() {
      return Logistic.logSigmoid(logEvidenceCbc - logEvidenceCbm);
    }

    /** log w_CBM = log(1 - w_CBC). */
    public double logWeightCbm() {
      return Logistic.logSigmoid(logEvidenceCbm - logEvidenceCbc);
    }

    /** w_CBC. */
    public double weightCbc() {
      return Math.exp(logWeightCbc());
    }
  }

  /** CBC and CBM log-probabilities at the posterior mean. */
  public Predictions plugIn(Design x) {
    return plugIn(x, Predictions.allocate(x.rows(), posterior.categories));
  }

  /**
   * CBC and CBM log-probabilities at the posterior mean, written into out (x's rows by the
   * posterior's categories) and returned: a caller that predicts again reuses out instead of
   * allocating N x K twice.
   */
  public Predictions plugIn(Design x, Predictions out) {
    return predict(x, posterior.means, out);
  }

  /**
   * CBC and CBM log-probabilities with weights B (M x K row-major), written into out and returned.
   */
  public Predictions predict(Design x, double[] weights, Predictions out) {
    checkDesign(x);
    int n = x.rows();
    int k = posterior.categories;
    if (out.rows() != n || out.categories() != k) {
      throw new IllegalArgumentException(
          "predictions hold "
              + out.rows()
              + " rows x "
              + out.categories()
              + " categories; the design has "
              + n
              + " rows and the posterior "
              + k
              + " categories");
    }
    if (weights.length != posterior.dimension * k) {
      throw new IllegalArgumentException(
          "weights have " + weights.length + " elements; need " + posterior.dimension + " x " + k);
    }
    forEachChunk(
        n,
        (start, count) -> {
          forEachProduct(
              x,
              weights,
              k,
              start,
              count,
              (first, rows, eta) ->
                  CbProbabilities.logProbabilities(
                      kernels, posterior.link, rows, k, eta, out.cbc(), out.cbm(), first * k));
          return null;
        });
    return out;
  }

  /**
   * Estimates both evidence bounds from S draws of q (seeded) on the training design and labels.
   */
  public ModelEvidence evidence(Design x, int[] labels, int samples, long seed) {
    checkDesign(x);
    checkSamples(samples);
    SplittableRandom random = new SplittableRandom(seed);
    double[] draw = new double[posterior.dimension * posterior.categories];
    double[] sums = new double[2];
    for (int s = 0; s < samples; s++) {
      posterior.sample(random, draw);
      addLogLikelihoods(kernels, posterior.link, x, labels, draw, posterior.categories, sums);
    }
    return evidence(sums, samples);
  }

  /** The S draws B^s ~ q (M x K row-major each) that {@link #evidence} takes with this seed. */
  public double[][] draws(int samples, long seed) {
    checkSamples(samples);
    SplittableRandom random = new SplittableRandom(seed);
    double[][] draws = new double[samples][posterior.dimension * posterior.categories];
    for (double[] draw : draws) {
      posterior.sample(random, draw);
    }
    return draws;
  }

  /**
   * Both evidence bounds from sums[0] = sum_s sum_i log p_CBC(y_i | x_i, B^s) and sums[1], the
   * CBM's, over S draws ({@link #addLogLikelihoods}, summed over all rows wherever they are).
   */
  public ModelEvidence evidence(double[] sums, int samples) {
    checkSamples(samples);
    double kl = posterior.klToPrior();
    return new ModelEvidence(sums[0] / samples - kl, sums[1] / samples - kl, samples);
  }

  /**
   * Adds sum_i log p_CBC(y_i | x_i, B) to sums[0] and the CBM's to sums[1], for the rows of x with
   * their labels and weights B (M x K row-major), rows taken in chunks in parallel and added in
   * chunk order.
   */
  public static void addLogLikelihoods(
      Kernels kernels, Link link, Design x, int[] labels, double[] weights, int k, double[] sums) {
    if (labels.length != x.rows()) {
      throw new IllegalArgumentException(labels.length + " labels for " + x.rows() + " rows");
    }
    if (weights.length != (long) x.columns() * k || sums.length != 2) {
      throw new IllegalArgumentException(
          "weights have "
              + weights.length
              + " elements for "
              + x.columns()
              + " x "
              + k
              + "; sums "
              + sums.length
              + " for 2");
    }
    double[] perChunk =
        forEachChunk(
            x.rows(),
            (start, count) -> {
              double[] chunkSums = new double[2];
              double[] c = new double[x.rowsPerProduct(k) * k];
              double[] m = new double[c.length];
              forEachProduct(
                  x,
                  weights,
                  k,
                  start,
                  count,
                  (first, rows, eta) -> {
                    CbProbabilities.logProbabilities(kernels, link, rows, k, eta, c, m, 0);
                    for (int i = 0; i < rows; i++) {
                      chunkSums[0] += c[i * k + labels[first + i]];
                      chunkSums[1] += m[i * k + labels[first + i]];
                    }
                  });
              return chunkSums;
            });
    for (int chunk = 0; chunk < perChunk.length; chunk += 2) {
      sums[0] += perChunk[chunk];
      sums[1] += perChunk[chunk + 1];
    }
  }

  private static void checkSamples(int samples) {
    if (samples < 1) {
      throw new IllegalArgumentException("samples = " + samples + " must be >= 1");
    }
  }

  /** BMA log-probabilities (Eq. 4.0.1): log(w_CBC p_CBC + w_CBM p_CBM) per cell, in log space. */
  public static double[] bmaLogProbabilities(Predictions p, ModelEvidence evidence) {
    double a = evidence.logWeightCbc();
    double b = evidence.logWeightCbm();
    double[] out = new double[p.cbc().length];
    for (int i = 0; i < out.length; i++) {
      double u = a + p.cbc()[i];
      double v = b + p.cbm()[i];
      double hi = Math.max(u, v);
      out[i] = hi + Math.log1p(Math.exp(Math.min(u, v) - hi));
    }
    return out;
  }

  /**
   * T draws of the BMA category probabilities for every row (draw t: p(y | x, B^t) averaged over
   * the two models with the BMA weights, B^t ~ q): element [t][i * K + k]. Per-cell quantiles of
   * these are posterior intervals on the category probabilities.
   */
  public double[][] predictiveDraws(Design x, ModelEvidence evidence, int draws, long seed) {
    if (draws < 1) {
      throw new IllegalArgumentException("draws = " + draws + " must be >= 1");
    }
    SplittableRandom random = new SplittableRandom(seed);
    double[] b = new double[posterior.dimension * posterior.categories];
    Predictions scratch = Predictions.allocate(x.rows(), posterior.categories);
    double[][] out = new double[draws][];
    for (int t = 0; t < draws; t++) {
      posterior.sample(random, b);
      double[] logp = bmaLogProbabilities(predict(x, b, scratch), evidence);
      for (int i = 0; i < logp.length; i++) {
        logp[i] = Math.exp(logp[i]);
      }
      out[t] = logp;
    }
    return out;
  }

  private void checkDesign(Design x) {
    if (x.columns() != posterior.dimension) {
      throw new IllegalArgumentException(
          "design has " + x.columns() + " columns, the posterior " + posterior.dimension);
    }
  }

  /** Work on the utilities eta (rows x K) of rows [first, first + rows). */
  private interface UtilityWork {
    void run(int first, int rows, double[] eta);
  }

  /**
   * Runs work on the utilities X B (B M x k) of rows [start, start + count), made {@link
   * Design#rowsPerProduct} rows at a time into one scratch, so each product runs on this thread and
   * its result is used in cache.
   */
  private static void forEachProduct(
      Design x, double[] weights, int k, int start, int count, UtilityWork work) {
    int step = x.rowsPerProduct(k);
    double[] eta = new double[step * k];
    for (int first = start; first < start + count; first += step) {
      int rows = Math.min(step, start + count - first);
      x.multiply(first, rows, 1, weights, 0, k, k, eta);
      work.run(first, rows, eta);
    }
  }

  /** A piece of work on rows [start, start + count) returning a few numbers, or null for none. */
  private interface ChunkWork {
    double[] run(int start, int count);
  }

  /**
   * Runs work on every row chunk in parallel; returns the double[] results concatenated in chunk
   * order.
   */
  private static double[] forEachChunk(int rows, ChunkWork work) {
    int chunks = (rows + ROW_CHUNK - 1) / ROW_CHUNK;
    double[][] results = new double[chunks][];
    IntStream.range(0, chunks)
        .parallel()
        .forEach(
            c -> {
              int start = c * ROW_CHUNK;
              results[c] = work.run(start, Math.min(ROW_CHUNK, rows - start));
            });
    return java.util.Arrays.stream(results)
        .filter(r -> r != null)
        .flatMapToDouble(java.util.Arrays::stream)
        .toArray();
  }
}
