package org.largecat.cb;

import org.largecat.data.Dataset;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.SpecialFunctions;
import org.largecat.kernel.Summation;

/**
 * The rows' half of an IB-CAVI pass ({@link IbCavi}): for a set of rows (all of them on one
 * machine, one partition's on Spark) and the current q(B), the ELBO's data terms and the sufficient
 * statistics that the driver's half ({@link CaviUpdate}) turns into the new q(B). Both work in
 * blocks of {@value #BLOCK} categories, so the rows' scratch is never N x K.
 *
 * <ul>
 *   <li>probit: per chunk of rows, -eta = -X M (one product); log Phi(+-eta) for the ELBO and E[z]
 *       from the truncated-normal mean (Eq. D.3.6, written as -E[z] = TN+(-eta) on the chunk's
 *       cells in place, its label cells fixed after), both from one pass of the pair kernel; then
 *       X^T E[z] added up, so each cell is made and consumed while in cache. Once per run: X^T X;
 *   <li>logit: eta = X M, c = (x^T Sigma_k x + eta^2)^(1/2) (Eq. E.3.3b), the ELBO's data terms
 *       (Eq. E.3.9), E[omega] = tanh(c/2)/(2c) from the Polya-Gamma mean kernel (Eq. E.3.5), then
 *       per category X^T W_k X (Eq. E.3.4a). Once per run: X^T kappa (Eq. E.2.7a).
 * </ul>
 */
public final class CaviRows implements CaviUpdate.FixedStatistics {
  /** Categories per block of work. */
  static final int BLOCK = 64;

  /** Rows per chunk of the logit's quadratic forms x_i^T Sigma_k x_i. */
  private static final int ROW_CHUNK = 256;

  /**
   * Rows per chunk of a probit block ({@link Design#rowsPerProduct}): the chunk's cells stay in
   * cache from the product that makes them to the one that consumes them, and neither product
   * starts BLAS threads on top of the block workers.
   */
  private final int probitRowChunk;

  private final Design design;
  private final int[] labels;
  private final Link link;
  private final boolean diagonal;
  private final Kernels kernels;
  private final int rows;
  private final int dim;
  private final int categories;

  /** Per block, the rows whose label is in the block and that label's column in the block. */
  private final int[][] positiveRows;

  private final int[][] positiveColumns;

  private CaviRows(Dataset data, Link link, boolean diagonal, Kernels kernels) {
    this.design = Design.withIntercept(data.features(), kernels);
    this.labels = data.labels();
    this.link = link;
    this.diagonal = diagonal;
    this.kernels = kernels;
    this.rows = design.rows();
    this.dim = design.columns();
    this.categories = data.classes();
    this.probitRowChunk = design.rowsPerProduct(BLOCK);
    int blocks = blocks(categories);
    int[] perBlock = new int[blocks];
    for (int y : labels) {
      perBlock[y / BLOCK]++;
    }
    positiveRows = new int[blocks][];
    positiveColumns = new int[blocks][];
    for (int b = 0; b < blocks; b++) {
      positiveRows[b] = new int[perBlock[b]];
      positiveColumns[b] = new int[perBlock[b]];
      perBlock[b] = 0;
    }
    for (int i = 0; i < rows; i++) {
      int b = labels[i] / BLOCK;
      positiveRows[b][perBlock[b]] = i;
      positiveColumns[b][perBlock[b]++] = labels[i] - b * BLOCK;
    }
  }

  /**
   * The rows of a dataset (features without an intercept; the design adds it), at least one, for
   * the given link and family.
   */
  public static CaviRows of(Dataset data, Link link, boolean diagonal, Kernels kernels) {
    if (data.rows() < 1) {
      throw new IllegalArgumentException("IB-CAVI needs at least one example");
    }
    if (link == null) {
      throw new IllegalArgumentException("link must be given (probit or logit)");
    }
    return new CaviRows(data, link, diagonal, kernels);
  }

  /** The number of blocks of {@value #BLOCK} categories that K categories make. */
  static int blocks(int categories) {
    return (categories + BLOCK - 1) / BLOCK;
  }

  /** N, the number of rows. */
  public int rows() {
    return rows;
  }

  /** M, the weights per category (the intercept included). */
  public int dimension() {
    return dim;
  }

  /** K. */
  public int categories() {
    return categories;
  }

  /** The rows' design, intercept included. */
  Design design() {
    return design;
  }

  /**
   * The statistics that stay the same all run, for a driver elsewhere: probit X^T X (its lower
   * triangle, M x M), logit X^T kappa (M x K).
   */
  public CaviStatistics fixedStatistics() {
    double[] sums = new double[link == Link.PROBIT ? dim * dim : dim * categories];
    if (link == Link.PROBIT) {
      gram(sums);
    } else {
      addKappaProducts(sums);
    }
    return new CaviStatistics(0, sums, rows);
  }

  /**
   * One pass over every block with the q(B) given, for a driver elsewhere: the ELBO's data terms
   * and, when updating, probit X^T E[z] (M x K) or logit X^T W_k X for every k (the lower triangle
   * of each, K x M x M).
   */
  public CaviStatistics statistics(CbPosterior.State q, boolean update) {
    if (q.link() != link || q.dimension() != dim || q.categories() != categories) {
      throw new IllegalArgumentException(
          "q(B) is "
              + q.link().label()
              + " with M = "
              + q.dimension()
              + ", K = "
              + q.categories()
              + "; the rows are "
              + link.label()
              + " with M = "
              + dim
              + ", K = "
              + categories);
    }
    Workspace w = new Workspace();
    int square = dim * dim;
    double[] sums = new double[update ? (link == Link.PROBIT ? dim : square) * categories : 0];
    double data = 0;
    for (int block = 0; block < positiveRows.length; block++) {
      int k0 = block * BLOCK;
      int kb = Math.min(BLOCK, categories - k0);
      if (link == Link.LOGIT) {
        data += logitBlock(w, block, q, update);
        if (update) {
          System.arraycopy(w.grams, 0, sums, k0 * square, kb * square);
        }
        continue;
      }
      java.util.Arrays.fill(w.rightSide, 0.0);
      data = probitBlock(w, block, q.means(), data, update);
      for (int r = 0; update && r < dim; r++) {
        System.arraycopy(w.rightSide, r * kb, sums, r * categories + k0, kb);
      }
    }
    return new CaviStatistics(data, sums, rows);
  }

  /**
   * For the evidence bounds of a driver elsewhere ({@link CbPredictor#evidence(double[], int)}):
   * the sums over the draws B^s (M x K row-major each) and these rows of log p_CBC(y_i | x_i, B^s)
   * and of log p_CBM(y_i | x_i, B^s).
   */
  public double[] logLikelihoodSums(double[][] draws) {
    double[] sums = new double[2];
    for (double[] draw : draws) {
      CbPredictor.addLogLikelihoods(kernels, link, design, labels, draw, categories, sums);
    }
    return sums;
  }

  /** The lower triangle of X^T X into out (M x M). */
  @Override
  public void gram(double[] out) {
    design.weightedGram(null, null, out);
  }

  /** Adds X^T kappa (M x K) to out, kappa_ik = [y_i = k] - 1/2 (Eq. E.2.7a). */
  @Override
  public void addKappaProducts(double[] out) {
    double[] kappa = new double[rows * categories];
    java.util.Arrays.fill(kappa, -0.5);
    for (int i = 0; i < rows; i++) {
      kappa[i * categories + labels[i]] = 0.5;
    }
    design.multiplyTransposedAdd(0, rows, 1, kappa, categories, out);
  }

  /**
   * A probit block over all rows with the means M given: adds the rows' data terms to elbo and
   * returns it; when updating, adds X^T E[z] to the workspace's right side (M x the block's
   * categories).
   */
  double probitBlock(Workspace w, int block, double[] means, double elbo, boolean update) {
    int[] pr = positiveRows[block];
    int p = 0;
    for (int r0 = 0; r0 < rows; r0 += probitRowChunk) {
      int count = Math.min(probitRowChunk, rows - r0);
      int p0 = p;
      while (p < pr.length && pr[p] < r0 + count) {
        p++;
      }
      elbo += probitRows(w, block, means, r0, count, p0, p, update);
    }
    return elbo;
  }

  /**
   * Rows [r0, r0 + count) of a probit block, whose label cells are the block's positives [p0, p1):
   * returns their part of the ELBO and, when updating, adds X[rows]^T E[z] to the workspace's
   * right-hand side. The chunk's cells are made, used and consumed while they are in cache.
   */
  private double probitRows(
      Workspace w, int block, double[] means, int r0, int count, int p0, int p1, boolean update) {
    SpecialFunctions sf = kernels.specialFunctions();
    int k0 = block * BLOCK;
    int kb = Math.min(BLOCK, categories - k0);
    int cells = count * kb;
    int np = p1 - p0;
    double[] u = w.cells;
    design.multiply(r0, count, -1, means, k0, categories, kb, u); // u = -eta
    int[] pr = positiveRows[block];
    int[] pc = positiveColumns[block];
    for (int p = p0; p < p1; p++) {
      w.negatedAtLabel[p - p0] = u[(pr[p] - r0) * kb + pc[p]];
      w.etaAtLabel[p - p0] = -w.negatedAtLabel[p - p0];
    }
    // sum_i log Phi(-eta_ik) over y_ik = 0 plus log Phi(eta_ik) over y_ik = 1 (Eq. D.3.8, terms
    // A + C); when updating, also -E[z_ik] = TN+(-eta) on the y = 0 cells in place (E of N(eta, 1)
    // on (-inf, 0) is -TN+(-eta)), Eq. D.3.6, from the same pass over the cells.
    double data =
        sf.sumAndApply(
            ElementwiseFunction.NORMAL_LOG_CDF,
            update ? ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE : null,
            cells,
            u,
            0,
            u,
            0);
    if (np > 0) {
      sf.apply(ElementwiseFunction.NORMAL_LOG_CDF, np, w.negatedAtLabel, 0, w.labelScratch, 0);
      sf.apply(ElementwiseFunction.NORMAL_LOG_CDF, np, w.etaAtLabel, 0, w.labelScratch2, 0);
      for (int p = 0; p < np; p++) {
        data += w.labelScratch2[p] - w.labelScratch[p];
      }
    }
    if (!update) {
      return data;
    }
    if (np > 0) {
      sf.apply(
          ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE,
          np,
          w.etaAtLabel,
          0,
          w.labelScratch,
          0);
      for (int p = p0; p < p1; p++) {
        u[(pr[p] - r0) * kb + pc[p]] = -w.labelScratch[p - p0];
      }
    }
    design.multiplyTransposedAdd(r0, count, -1, u, kb, w.rightSide); // Lambda0 mu0 + X^T E[z]
    return data;
  }

  /**
   * A logit block over all rows with q(B) given: returns the rows' data terms of the ELBO and, when
   * updating, leaves X^T W_k X (lower triangle) for the block's categories in the workspace's
   * grams, one M x M after the other.
   */
  double logitBlock(Workspace w, int block, CbPosterior.State q, boolean update) {
    SpecialFunctions sf = kernels.specialFunctions();
    int k0 = block * BLOCK;
    int kb = Math.min(BLOCK, categories - k0);
    int cells = rows * kb;
    double[] eta = w.cells;
    double[] c = w.scratch;
    design.multiply(0, rows, 1, q.means(), k0, categories, kb, eta);
    quadraticForms(w, q, k0, kb, c); // x_i^T Sigma_k x_i
    for (int i = 0; i < cells; i++) {
      c[i] = Math.sqrt(c[i] + eta[i] * eta[i]); // Eq. E.3.3b
    }
    // Eq. E.3.9: sum_i kappa_ik eta_ik - log(1 + e^-c) - c/2, with -log(1 + e^-c) = log sigma(c).
    int[] pr = positiveRows[block];
    int[] pc = positiveColumns[block];
    double data = -0.5 * Summation.sum(cells, eta) - 0.5 * Summation.sum(cells, c);
    for (int p = 0; p < pr.length; p++) {
      data += eta[pr[p] * kb + pc[p]];
    }
    sf.apply(ElementwiseFunction.LOG_SIGMOID, cells, c, 0, eta, 0); // eta is no longer needed
    data += Summation.sum(cells, eta);
    if (!update) {
      return data;
    }
    sf.apply(ElementwiseFunction.POLYA_GAMMA_MEAN, cells, c, 0, c, 0); // E[omega_ik], Eq. E.3.5
    int square = dim * dim;
    for (int j = 0; j < kb; j++) {
      for (int i = 0; i < rows; i++) {
        w.weights[i] = c[i * kb + j];
      }
      // A gram of its own: the dense product writes only the lower triangle, so the upper one
      // stays 0 and the sums of grams are the same wherever they are made.
      design.weightedGram(w.weights, w.gramScratch, w.gram);
      System.arraycopy(w.gram, 0, w.grams, j * square, square);
    }
    return data;
  }

  /** out (N x kb) = x_i^T Sigma_k x_i for the block's categories. */
  private void quadraticForms(Workspace w, CbPosterior.State q, int k0, int kb, double[] out) {
    if (diagonal) {
      for (int j = 0; j < kb; j++) {
        for (int r = 0; r < dim; r++) {
          w.rightSide[r] = q.variances()[r * categories + k0 + j];
        }
        design.squaredTimes(w.rightSide, w.weights);
        for (int i = 0; i < rows; i++) {
          out[i * kb + j] = w.weights[i];
        }
      }
      return;
    }
    // Sigma_k = A_k^-1 once per category (an M x M solve), then Sigma_k X^T chunk by chunk as one
    // product: a gemm, where solving with the factor per chunk took two small triangular solves.
    double[] sigma = w.covariance;
    for (int j = 0; j < kb; j++) {
      java.util.Arrays.fill(sigma, 0.0);
      for (int r = 0; r < dim; r++) {
        sigma[r * dim + r] = 1;
      }
      kernels.matrixOps().choleskySolve(dim, dim, q.factors()[k0 + j], 0, dim, sigma, 0, dim);
      for (int r0 = 0; r0 < rows; r0 += ROW_CHUNK) {
        int count = Math.min(ROW_CHUNK, rows - r0);
        design.transposedRows(r0, count, w.transposed);
        kernels
            .matrixOps()
            .gemm(
                false,
                false,
                dim,
                count,
                dim,
                1,
                sigma,
                0,
                dim,
                w.transposed,
                0,
                count,
                0,
                w.solved,
                0,
                count);
        for (int i = 0; i < count; i++) {
          out[(r0 + i) * kb + j] = 0;
        }
        for (int r = 0; r < dim; r++) {
          for (int i = 0, at = r * count; i < count; i++, at++) {
            out[(r0 + i) * kb + j] += w.transposed[at] * w.solved[at];
          }
        }
      }
    }
  }

  /** A new scratch for one thread's blocks. */
  Workspace workspace() {
    return new Workspace();
  }

  /**
   * One thread's scratch: cells twice (a probit row chunk x BLOCK, or the logit's N x BLOCK), the
   * label cells, the block's right side (M x BLOCK) or grams (BLOCK x M x M), and small matrices.
   */
  final class Workspace {
    final int cellCount = (link == Link.PROBIT ? Math.min(rows, probitRowChunk) : rows) * BLOCK;
    final double[] cells = new double[cellCount];
    final double[] scratch = new double[cellCount];
    final double[] negatedAtLabel = new double[rows];
    final double[] etaAtLabel = new double[rows];
    final double[] labelScratch = new double[rows];
    final double[] labelScratch2 = new double[rows];
    final double[] rightSide = new double[dim * BLOCK];
    final double[] weights = new double[rows];
    final double[] squareScratch = new double[dim * dim];
    final double[] gram = link == Link.LOGIT ? new double[dim * dim] : null;
    final double[] grams = link == Link.LOGIT ? new double[BLOCK * dim * dim] : null;
    final double[] gramScratch =
        design.sparse() || link == Link.PROBIT ? null : new double[rows * dim];
    final double[] transposed = link == Link.LOGIT ? new double[dim * ROW_CHUNK] : null;
    final double[] solved = link == Link.LOGIT ? new double[dim * ROW_CHUNK] : null;

    /** Logit with full covariances: Sigma_k of the category at hand. */
    final double[] covariance = link == Link.LOGIT && !diagonal ? new double[dim * dim] : null;
  }
}
