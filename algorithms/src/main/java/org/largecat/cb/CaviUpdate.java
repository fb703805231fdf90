package org.largecat.cb;

import java.util.Arrays;
import org.largecat.kernel.Kernels;

/**
 * The driver's half of an IB-CAVI pass ({@link IbCavi}): holds q(B) and, from the rows' sums
 * ({@link CaviRows}), adds the ELBO's prior terms and finishes the update, block by block of {@link
 * CaviRows#BLOCK} categories.
 *
 * <ul>
 *   <li>probit: M = A^-1 (Lambda0 mu0 + X^T E[z]) for all K at once with A = Lambda0 + X^T X
 *       factored once (Eq. D.3.5);
 *   <li>logit: per category A_k = Lambda0 + X^T W_k X, its Cholesky factor and mu_k = A_k^-1 (X^T
 *       kappa_k + Lambda0 mu0) (Eq. E.3.4).
 * </ul>
 *
 * <p>The fully mean-field family (Secs. D.4, E.4) keeps sigma^2_mk = 1/A_mm (the paper's
 * "[(Sigma0)_mk + sum x_im^2]^-1" is garbled in the extraction; the coordinate optimum is the
 * inverse of the diagonal of the precision) and updates the means by one Gauss-Seidel sweep mu_m =
 * (r_m - sum_{j != m} A_mj mu_j) / A_mm, which is the exact coordinate optimum of each q(beta_mk)
 * in turn, so the ELBO cannot fall. (Using the diagonal in mu = diag(A)^-1 r instead is not
 * coordinate ascent and can lower it.) It skips the Cholesky factors; the logit still forms X^T W_k
 * X, whose off-diagonal entries the exact mean update needs.
 *
 * <p>The ELBO of a pass is that of q(B) before its update, with q(z) (q(omega)) at its optimum for
 * that q(B). For probit, D.3.8's terms (A) + (C) then reduce to log Phi(+-eta_ik) - x_i^T Sigma_k
 * x_i / 2 (the truncated-normal entropy D.1.7/D.1.8 cancels the -eta delta/2 of (A)), and since
 * tr((X^T X + Lambda0) Sigma_k) = M for both families, ELBO_k = sum_i log Phi(+-eta_ik) - (M -
 * tr(Lambda0 Sigma_k))/2 - KL_k.
 */
public final class CaviUpdate {
  /** The sums over all rows that stay the same all run. */
  interface FixedStatistics {
    /** The lower triangle of X^T X into out (M x M). */
    void gram(double[] out);

    /** Adds X^T kappa (M x K) to out. */
    void addKappaProducts(double[] out);
  }

  private final GaussianPrior prior;
  private final CaviOptions options;
  private final Kernels kernels;
  private final int dim;
  private final int categories;
  private final CbPosterior posterior;

  /** Probit: A = Lambda0 + X^T X, whole (diagonal family); tr(Lambda0 Sigma) shared by all k. */
  private double[] sharedPrecision;

  private double sharedTrace;

  /**
   * Probit with the shared factor: Lambda0 mu0 + X^T E[z] for all K (M x K), filled block by block
   * and solved with one call after the pass, on the caller's thread, so that BLAS can use every
   * core for it and never starts threads inside a block worker.
   */
  private double[] probitRightSide;

  /** Logit: X^T kappa + Lambda0 mu0, M x K. */
  private double[] logitRightSide;

  CaviUpdate(
      GaussianPrior prior,
      CaviOptions options,
      int categories,
      Kernels kernels,
      FixedStatistics fixed) {
    this.prior = prior;
    this.options = options;
    this.kernels = kernels;
    this.dim = prior.dimension();
    this.categories = categories;
    CbPosterior.Form form =
        options.diagonal()
            ? CbPosterior.Form.DIAGONAL
            : options.link() == Link.PROBIT
                ? CbPosterior.Form.SHARED_FACTOR
                : CbPosterior.Form.FACTOR_PER_CATEGORY;
    this.posterior = new CbPosterior(options.link(), prior, kernels, categories, form);
    initialise(fixed);
  }

  /**
   * The driver of a run whose rows are elsewhere: the starting q(B) from the prior and the rows'
   * {@link CaviRows#fixedStatistics} summed over all rows.
   */
  public static CaviUpdate start(
      GaussianPrior prior,
      CaviOptions options,
      int categories,
      Kernels kernels,
      CaviStatistics fixed) {
    int m = prior.dimension();
    int expected = options.link() == Link.PROBIT ? m * m : m * categories;
    if (categories < 1 || fixed.sums().length != expected || fixed.rows() < 1) {
      throw new IllegalArgumentException(
          "fixed statistics of "
              + fixed.rows()
              + " rows with "
              + fixed.sums().length
              + " numbers; a "
              + options.link().label()
              + " run with M = "
              + m
              + " and K = "
              + categories
              + " needs at least one row and "
              + expected);
    }
    return new CaviUpdate(
        prior,
        options,
        categories,
        kernels,
        new FixedStatistics() {
          @Override
          public void gram(double[] out) {
            System.arraycopy(fixed.sums(), 0, out, 0, expected);
          }

          @Override
          public void addKappaProducts(double[] out) {
            for (int i = 0; i < expected; i++) {
              out[i] += fixed.sums()[i];
            }
          }
        });
  }

  /** The current q(B) (updated in place by later passes). */
  public CbPosterior posterior() {
    return posterior;
  }

  /**
   * Finishes a pass from the rows' {@link CaviRows#statistics} summed over all rows: returns the
   * ELBO of q(B) as it was and, when updating, sets q(B) to its update.
   */
  public double finish(CaviStatistics totals, boolean update) {
    int square = dim * dim;
    int expected = update ? (options.link() == Link.PROBIT ? dim : square) * categories : 0;
    if (totals.sums().length != expected) {
      throw new IllegalArgumentException(
          "statistics of " + totals.sums().length + " numbers; this pass needs " + expected);
    }
    double elbo = totals.data();
    double[] rhs = new double[dim * CaviRows.BLOCK];
    for (int block = 0; block < CaviRows.blocks(categories); block++) {
      int k0 = block * CaviRows.BLOCK;
      int kb = Math.min(CaviRows.BLOCK, categories - k0);
      if (options.link() == Link.LOGIT) {
        elbo += finishLogitBlock(block, 0, totals.sums(), k0 * square, update);
        continue;
      }
      elbo += probitPriorTerms(block);
      if (update) {
        priorRightSide(block, rhs);
        for (int r = 0; r < dim; r++) {
          for (int c = 0; c < kb; c++) {
            rhs[r * kb + c] += totals.sums()[r * categories + k0 + c];
          }
        }
        finishProbitBlock(block, rhs);
      }
    }
    if (update) {
      solveShared();
    }
    return elbo;
  }

  /**
   * The starting q(B): means mu0; probit's fixed covariance; logit's covariances Sigma0 (or
   * 1/Lambda0_mm).
   */
  private void initialise(FixedStatistics fixed) {
    int m = dim;
    double[] lambda0 = prior.precision();
    if (options.link() == Link.PROBIT) {
      double[] a = new double[m * m];
      fixed.gram(a);
      for (int i = 0; i < m * m; i++) {
        a[i] += lambda0[i];
      }
      if (options.diagonal()) {
        Design.symmetrize(m, a);
        sharedPrecision = a;
        for (int r = 0; r < m; r++) {
          Arrays.fill(posterior.variances, r * categories, (r + 1) * categories, 1 / a[r * m + r]);
        }
      } else {
        System.arraycopy(a, 0, posterior.sharedFactor, 0, m * m);
        CbPosterior.factorLower(kernels, m, posterior.sharedFactor);
        probitRightSide = new double[m * categories];
      }
      sharedTrace = posterior.traceWithPriorPrecision(0, new double[m * m]);
      return;
    }
    for (int k = 0; k < categories; k++) {
      if (options.diagonal()) {
        for (int r = 0; r < m; r++) {
          posterior.variances[r * categories + k] = 1 / lambda0[r * m + r];
        }
      } else {
        System.arraycopy(lambda0, 0, posterior.factors[k], 0, m * m);
        CbPosterior.factorLower(kernels, m, posterior.factors[k]);
      }
    }
    // X^T kappa_k + Lambda0 mu0, the same every iteration.
    logitRightSide = new double[m * categories];
    for (int r = 0; r < m; r++) {
      Arrays.fill(
          logitRightSide, r * categories, (r + 1) * categories, prior.precisionTimesMean(r));
    }
    fixed.addKappaProducts(logitRightSide);
  }

  /** A probit block's ELBO terms of q(B) alone: -(M - tr(Lambda0 Sigma))/2 - KL_k per category. */
  double probitPriorTerms(int block) {
    int k0 = block * CaviRows.BLOCK;
    int kb = Math.min(CaviRows.BLOCK, categories - k0);
    double elbo = 0;
    for (int c = 0; c < kb; c++) {
      elbo -= 0.5 * (dim - sharedTrace) + posterior.klToPrior(k0 + c, sharedTrace);
    }
    return elbo;
  }

  /** Fills rhs (M x the block's categories) with Lambda0 mu0, to which X^T E[z] is added. */
  void priorRightSide(int block, double[] rhs) {
    int kb = Math.min(CaviRows.BLOCK, categories - block * CaviRows.BLOCK);
    for (int r = 0; r < dim; r++) {
      Arrays.fill(rhs, r * kb, (r + 1) * kb, prior.precisionTimesMean(r));
    }
  }

  /**
   * Updates a probit block from rhs = Lambda0 mu0 + X^T E[z] (M x the block's categories): the
   * diagonal family's sweep now, the shared factor's solve in {@link #solveShared}.
   */
  void finishProbitBlock(int block, double[] rhs) {
    int k0 = block * CaviRows.BLOCK;
    int kb = Math.min(CaviRows.BLOCK, categories - k0);
    if (options.diagonal()) {
      for (int c = 0; c < kb; c++) {
        coordinateSweep(sharedPrecision, rhs, c, kb, k0 + c);
      }
    } else {
      for (int r = 0; r < dim; r++) {
        System.arraycopy(rhs, r * kb, probitRightSide, r * categories + k0, kb);
      }
    }
  }

  /** After every probit block: M = A^-1 (Lambda0 mu0 + X^T E[z]) for all K (Eq. D.3.5a). */
  void solveShared() {
    if (probitRightSide == null) {
      return;
    }
    kernels
        .matrixOps()
        .choleskySolve(
            dim, categories, posterior.sharedFactor, 0, dim, probitRightSide, 0, categories);
    System.arraycopy(probitRightSide, 0, posterior.means, 0, dim * categories);
  }

  /**
   * A logit block: subtracts each category's KL_k from elbo (the block's data terms) and returns
   * it; when updating, sets q(beta_k) from X^T W_k X, the lower triangles in grams from gramsOff
   * on, one M x M per category of the block.
   */
  double finishLogitBlock(int block, double elbo, double[] grams, int gramsOff, boolean update) {
    int k0 = block * CaviRows.BLOCK;
    int kb = Math.min(CaviRows.BLOCK, categories - k0);
    int square = dim * dim;
    double[] scratch = new double[square];
    for (int j = 0; j < kb; j++) {
      elbo -= posterior.klToPrior(k0 + j, posterior.traceWithPriorPrecision(k0 + j, scratch));
    }
    if (!update) {
      return elbo;
    }
    double[] lambda0 = prior.precision();
    double[] rhs = new double[dim];
    for (int j = 0; j < kb; j++) {
      int k = k0 + j;
      double[] a = options.diagonal() ? scratch : posterior.factors[k];
      int from = gramsOff + j * square;
      for (int i = 0; i < square; i++) {
        a[i] = grams[from + i] + lambda0[i]; // Eq. E.3.4a
      }
      for (int r = 0; r < dim; r++) {
        rhs[r] = logitRightSide[r * categories + k];
      }
      if (options.diagonal()) {
        Design.symmetrize(dim, a);
        for (int r = 0; r < dim; r++) {
          posterior.variances[r * categories + k] = 1 / a[r * dim + r];
        }
        coordinateSweep(a, rhs, 0, 1, k);
      } else {
        CbPosterior.factorLower(kernels, dim, a);
        kernels.matrixOps().choleskySolve(dim, 1, a, 0, dim, rhs, 0, 1); // Eq. E.3.4b
        for (int r = 0; r < dim; r++) {
          posterior.means[r * categories + k] = rhs[r];
        }
      }
    }
    return elbo;
  }

  /**
   * One Gauss-Seidel sweep mu_m = (r_m - sum_{j != m} A_mj mu_j) / A_mm over the means of category
   * k (the coordinate optimum of each q(beta_mk), Secs. D.4 / E.4), A whole M x M, r at rhs[off + m
   * * stride].
   */
  private void coordinateSweep(double[] a, double[] rhs, int off, int stride, int k) {
    double[] mu = posterior.means;
    for (int m = 0; m < dim; m++) {
      double s = rhs[off + m * stride];
      for (int j = 0; j < dim; j++) {
        if (j != m) {
          s -= a[m * dim + j] * mu[j * categories + k];
        }
      }
      mu[m * categories + k] = s / a[m * dim + m];
    }
  }
}
