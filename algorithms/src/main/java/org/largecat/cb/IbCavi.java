package org.largecat.cb;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.largecat.MemoryBudget;
import org.largecat.data.Dataset;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.SpecialFunctions;
import org.largecat.kernel.Summation;

/**
 * Independent-binary coordinate ascent variational inference (IB-CAVI, Sec. 3.3): closed-form CAVI
 * for the IB-probit (Algorithm 2, App. D) or IB-logit (Algorithm 3, App. E) model on the one-hot
 * labels, giving a q(B) for every CB likelihood on that base.
 *
 * <p>Categories are independent (Sec. 3.3), so the work is cut into fixed blocks of {@value #BLOCK}
 * categories that run in parallel; a block holds N x 64 scratch (probit: a chunk of rows x 64,
 * taken chunk after chunk in row order), never N x K, and the block partition does not depend on
 * the thread count, so a run gives the same numbers on any number of threads. Each pass over the
 * blocks does, per block:
 *
 * <ul>
 *   <li>probit: per chunk of rows, -eta = -X M (one product); log Phi(+-eta) for the ELBO and E[z]
 *       from the truncated-normal mean (Eq. D.3.6, written as -E[z] = TN+(-eta) on the chunk's
 *       cells in place, its label cells fixed after), both from one pass of the pair kernel; then
 *       X^T E[z] added up, so each cell is made and consumed while in cache. After the pass, for
 *       all K at once, M = A^-1 (Lambda0 mu0 + X^T E[z]) with A = Lambda0 + X^T X factored once
 *       (Eq. D.3.5);
 *   <li>logit: eta = X M, c = (x^T Sigma_k x + eta^2)^(1/2) (Eq. E.3.3b), the ELBO (Eq. E.3.9),
 *       E[omega] = tanh(c/2)/(2c) from the Polya-Gamma mean kernel (Eq. E.3.5), then per category
 *       A_k = Lambda0 + X^T W_k X, its Cholesky factor and mu_k = A_k^-1 (X^T kappa_k + Lambda0
 *       mu0) (Eq. E.3.4).
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
 * tr(Lambda0 Sigma_k))/2 - KL_k. Convergence: stop when an update raised the ELBO by at most
 * tolerance * |ELBO|; one more pass then evaluates the returned q(B), so the last ELBO is exactly
 * the returned posterior's.
 */
public final class IbCavi implements AutoCloseable {
  /** The bytes of an array's header in a 64-bit JVM with compressed pointers. */
  private static final long ARRAY_HEADER_BYTES = 16;

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
  private final GaussianPrior prior;
  private final CaviOptions options;
  private final Kernels kernels;
  private final int rows;
  private final int dim;
  private final int categories;
  private final CbPosterior posterior;

  /** Per block, the rows whose label is in the block and that label's column in the block. */
  private final int[][] positiveRows;

  private final int[][] positiveColumns;

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

  private final ThreadLocal<Workspace> workspaces;

  /** Worker threads, or null to run the blocks on the caller's thread. */
  private final ExecutorService pool;

  private IbCavi(Dataset data, GaussianPrior prior, CaviOptions options, Kernels kernels) {
    this.design = Design.withIntercept(data.features(), kernels);
    this.labels = data.labels();
    this.prior = prior;
    this.options = options;
    this.kernels = kernels;
    this.rows = design.rows();
    this.dim = design.columns();
    this.categories = data.classes();
    this.probitRowChunk = design.rowsPerProduct(BLOCK);
    if (prior.dimension() != dim) {
      throw new IllegalArgumentException(
          "prior has dimension "
              + prior.dimension()
              + " but the design has "
              + dim
              + " columns ("
              + (dim - 1)
              + " features and the intercept)");
    }
    CbPosterior.Form form =
        options.diagonal()
            ? CbPosterior.Form.DIAGONAL
            : options.link() == Link.PROBIT
                ? CbPosterior.Form.SHARED_FACTOR
                : CbPosterior.Form.FACTOR_PER_CATEGORY;
    this.posterior = new CbPosterior(options.link(), prior, kernels, categories, form);
    int blocks = (categories + BLOCK - 1) / BLOCK;
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
    workspaces = ThreadLocal.withInitial(Workspace::new);
    pool =
        options.threads() > 1
            ? Executors.newFixedThreadPool(
                options.threads(),
                r -> {
                  Thread t = new Thread(r, "ib-cavi");
                  t.setDaemon(true);
                  return t;
                })
            : null;
    initialise();
  }

  /**
   * Prepares a run: the design, the starting q(B) and, for probit, the shared factor; the caller
   * steps it with {@link #iterate()} and closes it (which stops its threads).
   */
  public static IbCavi start(
      Dataset data, GaussianPrior prior, CaviOptions options, Kernels kernels) {
    if (data.rows() < 1) {
      throw new IllegalArgumentException("IB-CAVI needs at least one example");
    }
    checkShape(data, prior.dimension(), options);
    return new IbCavi(data, prior, options, kernels);
  }

  /**
   * Refuses, before any work, a shape whose q(B) could not be held: the (D + 1) × K means and
   * variances or right sides, and for logit the N × K kappa and, unless diagonal, one (D + 1)²
   * factor per class (each a small array with its header).
   */
  private static void checkShape(Dataset data, int m, CaviOptions options) {
    int k = data.classes();
    long bytes =
        2L
            * Double.BYTES
            * MemoryBudget.arrayLength("q(B)'s means, (D + 1) × K", Double.BYTES, m, k);
    if (options.link() == Link.LOGIT) {
      bytes +=
          (long) Double.BYTES
              * MemoryBudget.arrayLength("the logit's kappa, N × K", Double.BYTES, data.rows(), k);
      if (!options.diagonal()) {
        long factor =
            ARRAY_HEADER_BYTES
                + (long) Double.BYTES
                    * MemoryBudget.arrayLength(
                        "a class's covariance factor, (D + 1)²", Double.BYTES, m, m);
        bytes += k * factor;
      }
    }
    MemoryBudget.require(
        bytes, "IB-CAVI's q(B) for K = " + k + " classes and D + 1 = " + m + " weights each");
  }

  /**
   * Fits q(B) to the dataset (features without an intercept; the design adds it) with the prior
   * given.
   */
  public static CaviFit fit(
      Dataset data, GaussianPrior prior, CaviOptions options, Kernels kernels) {
    try (IbCavi run = start(data, prior, options, kernels)) {
      List<Double> trace = new ArrayList<>();
      List<Double> seconds = new ArrayList<>();
      int iterations = 0;
      boolean converged = false;
      while (iterations < options.maxIterations() && !converged) {
        long start = System.nanoTime();
        trace.add(run.iterate());
        seconds.add((System.nanoTime() - start) * 1e-9);
        iterations++;
        int t = trace.size() - 1;
        if (t >= 1 && options.tolerance() > 0) {
          converged =
              trace.get(t) - trace.get(t - 1) <= options.tolerance() * Math.abs(trace.get(t));
        }
      }
      trace.add(run.elbo());
      double[] elbo = trace.stream().mapToDouble(Double::doubleValue).toArray();
      return new CaviFit(
          run.posterior,
          elbo,
          seconds.stream().mapToDouble(Double::doubleValue).toArray(),
          iterations,
          converged,
          (long) run.rows * run.categories);
    }
  }

  /** One CAVI iteration: returns the ELBO of q(B) as it was, then updates q(aux) and q(B). */
  public double iterate() {
    return pass(true);
  }

  /** The ELBO of the current q(B) (with the auxiliary factor at its optimum), without updating. */
  public double elbo() {
    return pass(false);
  }

  /** The current q(B) (updated in place by later iterations). */
  public CbPosterior posterior() {
    return posterior;
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  /**
   * The starting q(B): means mu0; probit's fixed covariance; logit's covariances Sigma0 (or
   * 1/Lambda0_mm).
   */
  private void initialise() {
    int m = dim;
    double[] lambda0 = prior.precision();
    if (options.link() == Link.PROBIT) {
      double[] a = new double[m * m];
      design.weightedGram(null, null, a);
      for (int i = 0; i < m * m; i++) {
        a[i] += lambda0[i];
      }
      if (options.diagonal()) {
        Design.symmetrize(m, a);
        sharedPrecision = a;
        for (int r = 0; r < m; r++) {
          java.util.Arrays.fill(
              posterior.variances, r * categories, (r + 1) * categories, 1 / a[r * m + r]);
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
    // X^T kappa_k + Lambda0 mu0 with kappa_ik = [y_i = k] - 1/2 (Eq. E.2.7a), the same every
    // iteration.
    logitRightSide = new double[m * categories];
    for (int r = 0; r < m; r++) {
      java.util.Arrays.fill(
          logitRightSide, r * categories, (r + 1) * categories, prior.precisionTimesMean(r));
    }
    double[] kappa = new double[rows * categories];
    java.util.Arrays.fill(kappa, -0.5);
    for (int i = 0; i < rows; i++) {
      kappa[i * categories + labels[i]] = 0.5;
    }
    design.multiplyTransposedAdd(0, rows, 1, kappa, categories, logitRightSide);
  }

  /** One pass over all blocks: returns the ELBO of the current q(B), then updates q(B) if asked. */
  private double pass(boolean update) {
    int blocks = positiveRows.length;
    List<Callable<Double>> tasks = new ArrayList<>(blocks);
    for (int b = 0; b < blocks; b++) {
      int block = b;
      tasks.add(
          () ->
              options.link() == Link.PROBIT
                  ? probitBlock(block, update)
                  : logitBlock(block, update));
    }
    double elbo = 0;
    try {
      if (pool == null) {
        for (Callable<Double> t : tasks) {
          elbo += t.call();
        }
      } else {
        for (Future<Double> f : pool.invokeAll(tasks)) {
          elbo += f.get();
        }
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("IB-CAVI interrupted", e);
    } catch (Exception e) {
      throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
    }
    if (update && probitRightSide != null) {
      // M = A^-1 (Lambda0 mu0 + X^T E[z]) for every category at once (Eq. D.3.5a).
      kernels
          .matrixOps()
          .choleskySolve(
              dim, categories, posterior.sharedFactor, 0, dim, probitRightSide, 0, categories);
      System.arraycopy(probitRightSide, 0, posterior.means, 0, dim * categories);
    }
    return elbo;
  }

  private double probitBlock(int block, boolean update) {
    Workspace w = workspaces.get();
    int k0 = block * BLOCK;
    int kb = Math.min(BLOCK, categories - k0);
    double elbo = 0;
    for (int c = 0; c < kb; c++) {
      elbo -= 0.5 * (dim - sharedTrace) + posterior.klToPrior(k0 + c, sharedTrace);
    }
    double[] rhs = w.rightSide;
    if (update) {
      for (int r = 0; r < dim; r++) {
        java.util.Arrays.fill(rhs, r * kb, (r + 1) * kb, prior.precisionTimesMean(r));
      }
    }
    int[] pr = positiveRows[block];
    int p = 0;
    for (int r0 = 0; r0 < rows; r0 += probitRowChunk) {
      int count = Math.min(probitRowChunk, rows - r0);
      int p0 = p;
      while (p < pr.length && pr[p] < r0 + count) {
        p++;
      }
      elbo += probitRows(w, block, r0, count, p0, p, update);
    }
    if (!update) {
      return elbo;
    }
    if (options.diagonal()) {
      for (int c = 0; c < kb; c++) {
        coordinateSweep(sharedPrecision, rhs, c, kb, k0 + c);
      }
    } else {
      for (int r = 0; r < dim; r++) {
        System.arraycopy(
            rhs, r * kb, probitRightSide, r * categories + k0, kb); // solved after the pass
      }
    }
    return elbo;
  }

  /**
   * Rows [r0, r0 + count) of a probit block, whose label cells are the block's positives [p0, p1):
   * returns their part of the ELBO and, when updating, adds X[rows]^T E[z] to the workspace's
   * right-hand side. The chunk's cells are made, used and consumed while they are in cache.
   */
  private double probitRows(
      Workspace w, int block, int r0, int count, int p0, int p1, boolean update) {
    SpecialFunctions sf = kernels.specialFunctions();
    int k0 = block * BLOCK;
    int kb = Math.min(BLOCK, categories - k0);
    int cells = count * kb;
    int np = p1 - p0;
    double[] u = w.cells;
    design.multiply(r0, count, -1, posterior.means, k0, categories, kb, u); // u = -eta
    int[] pr = positiveRows[block];
    int[] pc = positiveColumns[block];
    for (int p = p0; p < p1; p++) {
      w.negatedAtLabel[p - p0] = u[(pr[p] - r0) * kb + pc[p]];
      w.etaAtLabel[p - p0] = -w.negatedAtLabel[p - p0];
    }
    // sum_i log Phi(-eta_ik) over y_ik = 0 plus log Phi(eta_ik) over y_ik = 1 (Eq. D.3.8, terms A +
    // C);
    // when updating, also -E[z_ik] = TN+(-eta) on the y = 0 cells in place (E of N(eta,1) on
    // (-inf,0)
    // is -TN+(-eta)), Eq. D.3.6, from the same pass over the cells.
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

  private double logitBlock(int block, boolean update) {
    Workspace w = workspaces.get();
    SpecialFunctions sf = kernels.specialFunctions();
    int k0 = block * BLOCK;
    int kb = Math.min(BLOCK, categories - k0);
    int cells = rows * kb;
    double[] eta = w.cells;
    double[] c = w.scratch;
    design.multiply(0, rows, 1, posterior.means, k0, categories, kb, eta);
    quadraticForms(k0, kb, c); // x_i^T Sigma_k x_i
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
    double elbo = data;
    for (int j = 0; j < kb; j++) {
      elbo -=
          posterior.klToPrior(k0 + j, posterior.traceWithPriorPrecision(k0 + j, w.squareScratch));
    }
    if (!update) {
      return elbo;
    }
    sf.apply(ElementwiseFunction.POLYA_GAMMA_MEAN, cells, c, 0, c, 0); // E[omega_ik], Eq. E.3.5
    double[] lambda0 = prior.precision();
    for (int j = 0; j < kb; j++) {
      int k = k0 + j;
      for (int i = 0; i < rows; i++) {
        w.weights[i] = c[i * kb + j];
      }
      double[] a = options.diagonal() ? w.squareScratch : posterior.factors[k];
      design.weightedGram(w.weights, w.gramScratch, a);
      for (int i = 0; i < dim * dim; i++) {
        a[i] += lambda0[i]; // Eq. E.3.4a
      }
      for (int r = 0; r < dim; r++) {
        w.rightSide[r] = logitRightSide[r * categories + k];
      }
      if (options.diagonal()) {
        Design.symmetrize(dim, a);
        for (int r = 0; r < dim; r++) {
          posterior.variances[r * categories + k] = 1 / a[r * dim + r];
        }
        coordinateSweep(a, w.rightSide, 0, 1, k);
      } else {
        CbPosterior.factorLower(kernels, dim, a);
        kernels.matrixOps().choleskySolve(dim, 1, a, 0, dim, w.rightSide, 0, 1); // Eq. E.3.4b
        for (int r = 0; r < dim; r++) {
          posterior.means[r * categories + k] = w.rightSide[r];
        }
      }
    }
    return elbo;
  }

  /** out (N x kb) = x_i^T Sigma_k x_i for the block's categories. */
  private void quadraticForms(int k0, int kb, double[] out) {
    Workspace w = workspaces.get();
    if (options.diagonal()) {
      for (int j = 0; j < kb; j++) {
        for (int r = 0; r < dim; r++) {
          w.rightSide[r] = posterior.variances[r * categories + k0 + j];
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
      kernels.matrixOps().choleskySolve(dim, dim, posterior.factors[k0 + j], 0, dim, sigma, 0, dim);
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

  /**
   * One thread's scratch: cells twice (a probit row chunk x BLOCK, or the logit's N x BLOCK), the
   * label cells, and the small matrices.
   */
  private final class Workspace {
    final int cellCount =
        (options.link() == Link.PROBIT ? Math.min(rows, probitRowChunk) : rows) * BLOCK;
    final double[] cells = new double[cellCount];
    final double[] scratch = new double[cellCount];
    final double[] negatedAtLabel = new double[rows];
    final double[] etaAtLabel = new double[rows];
    final double[] labelScratch = new double[rows];
    final double[] labelScratch2 = new double[rows];
    final double[] rightSide = new double[dim * BLOCK];
    final double[] weights = new double[rows];
    final double[] squareScratch = new double[dim * dim];
    final double[] gramScratch =
        design.sparse() || options.link() == Link.PROBIT ? null : new double[rows * dim];
    final double[] transposed = options.link() == Link.LOGIT ? new double[dim * ROW_CHUNK] : null;
    final double[] solved = options.link() == Link.LOGIT ? new double[dim * ROW_CHUNK] : null;

    /** Logit with full covariances: Sigma_k of the category at hand. */
    final double[] covariance =
        options.link() == Link.LOGIT && !options.diagonal() ? new double[dim * dim] : null;
  }
}
