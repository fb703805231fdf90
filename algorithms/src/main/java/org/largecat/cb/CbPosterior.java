package org.largecat.cb;

import java.io.Serializable;
import java.util.SplittableRandom;
import org.largecat.kernel.Kernels;

/**
 * The variational posterior q(B) = prod_k N(beta_k | mu_k, Sigma_k) that IB-CAVI fits (Eqs. D.3.3,
 * E.3.2), usable by every CB likelihood on the same base (Sec. 3.3). Means are M x K row-major
 * (column k is mu_k). A covariance is kept as the Cholesky factor L of its precision A = Sigma^-1
 * (never inverted): one factor shared by all categories (probit, Eq. D.3.5b), one per category
 * (logit, Eq. E.3.4a), or, for the fully mean-field family, the M x K variances.
 */
public final class CbPosterior {
  /** How the covariances are stored. */
  enum Form {
    SHARED_FACTOR,
    FACTOR_PER_CATEGORY,
    DIAGONAL
  }

  final Link link;
  final GaussianPrior prior;
  final Kernels kernels;
  final int dimension;
  final int categories;
  final double[] means;
  final Form form;

  /** Lower-triangular L with A = L L^T, strict upper triangle 0 (SHARED_FACTOR). */
  final double[] sharedFactor;

  /** One such L per category (FACTOR_PER_CATEGORY). */
  final double[][] factors;

  /** sigma^2_mk, M x K row-major (DIAGONAL). */
  final double[] variances;

  /**
   * The numbers of a q(B), without its prior and kernels: what the rows' half of an IB-CAVI pass
   * reads ({@link CaviRows}), sent to where the rows are, and what a saved model keeps. Exactly one
   * of sharedFactor, factors and variances is given, as in {@link CbPosterior}.
   *
   * @param means M x K row-major
   * @param sharedFactor the lower Cholesky factor of the precision shared by all categories, M x M
   * @param factors one such factor per category
   * @param variances sigma^2_mk, M x K row-major
   */
  public record State(
      Link link,
      int dimension,
      int categories,
      double[] means,
      double[] sharedFactor,
      double[][] factors,
      double[] variances)
      implements Serializable {
    public State {
      int m = dimension;
      int given =
          (sharedFactor != null ? 1 : 0) + (factors != null ? 1 : 0) + (variances != null ? 1 : 0);
      if (link == null
          || m < 1
          || categories < 1
          || means == null
          || means.length != (long) m * categories
          || given != 1
          || (sharedFactor != null && sharedFactor.length != m * m)
          || (factors != null
              && (factors.length != categories
                  || java.util.Arrays.stream(factors)
                      .anyMatch(f -> f == null || f.length != m * m)))
          || (variances != null && variances.length != means.length)) {
        throw new IllegalArgumentException(
            "a q(B) state needs a link, M x K means (M = "
                + m
                + ", K = "
                + categories
                + ") and exactly one of an M x M shared factor, K factors of M x M or M x K"
                + " variances");
      }
    }

    Form form() {
      return variances != null
          ? Form.DIAGONAL
          : sharedFactor != null ? Form.SHARED_FACTOR : Form.FACTOR_PER_CATEGORY;
    }
  }

  CbPosterior(Link link, GaussianPrior prior, Kernels kernels, int categories, Form form) {
    this.link = link;
    this.prior = prior;
    this.kernels = kernels;
    this.dimension = prior.dimension();
    this.categories = categories;
    this.form = form;
    int m = dimension;
    this.means = new double[m * categories];
    for (int a = 0; a < m; a++) {
      java.util.Arrays.fill(means, a * categories, (a + 1) * categories, prior.meanAt(a));
    }
    this.sharedFactor = form == Form.SHARED_FACTOR ? new double[m * m] : null;
    this.factors = form == Form.FACTOR_PER_CATEGORY ? new double[categories][m * m] : null;
    this.variances = form == Form.DIAGONAL ? new double[m * categories] : null;
  }

  /** A q(B) with the numbers of a state (copied) and the prior it was fitted with. */
  public static CbPosterior restore(State state, GaussianPrior prior, Kernels kernels) {
    if (prior.dimension() != state.dimension()) {
      throw new IllegalArgumentException(
          "prior has dimension " + prior.dimension() + ", the q(B) state " + state.dimension());
    }
    CbPosterior q = new CbPosterior(state.link(), prior, kernels, state.categories(), state.form());
    System.arraycopy(state.means(), 0, q.means, 0, q.means.length);
    switch (q.form) {
      case SHARED_FACTOR ->
          System.arraycopy(state.sharedFactor(), 0, q.sharedFactor, 0, q.sharedFactor.length);
      case FACTOR_PER_CATEGORY -> {
        for (int k = 0; k < q.categories; k++) {
          System.arraycopy(state.factors()[k], 0, q.factors[k], 0, q.factors[k].length);
        }
      }
      case DIAGONAL -> System.arraycopy(state.variances(), 0, q.variances, 0, q.variances.length);
    }
    return q;
  }

  /** A copy of the numbers of q(B), as they are now. */
  public State state() {
    return new State(
        link,
        dimension,
        categories,
        means.clone(),
        sharedFactor == null ? null : sharedFactor.clone(),
        factors == null
            ? null
            : java.util.Arrays.stream(factors).map(double[]::clone).toArray(double[][]::new),
        variances == null ? null : variances.clone());
  }

  /** The numbers of q(B) by reference, for the rows' half on this machine (read only). */
  State view() {
    return new State(link, dimension, categories, means, sharedFactor, factors, variances);
  }

  /** The base model's link. */
  public Link link() {
    return link;
  }

  /** K. */
  public int categories() {
    return categories;
  }

  /** M, the intercept included. */
  public int dimension() {
    return dimension;
  }

  /** Whether q(B) is fully factorised (diagonal covariances). */
  public boolean diagonal() {
    return form == Form.DIAGONAL;
  }

  /** A copy of the M x K posterior means, row-major. */
  public double[] means() {
    return means.clone();
  }

  /** Sigma_k as a whole M x M matrix (for inspection and tests; the fit never forms it). */
  public double[] covariance(int k) {
    int m = dimension;
    double[] s = new double[m * m];
    if (form == Form.DIAGONAL) {
      for (int a = 0; a < m; a++) {
        s[a * m + a] = variances[a * categories + k];
      }
      return s;
    }
    for (int a = 0; a < m; a++) {
      s[a * m + a] = 1;
    }
    kernels.matrixOps().choleskySolve(m, m, factor(k), 0, m, s, 0, m);
    return s;
  }

  double[] factor(int k) {
    return form == Form.SHARED_FACTOR ? sharedFactor : factors[k];
  }

  /** log|Sigma_k|. */
  double logDetCovariance(int k) {
    int m = dimension;
    double s = 0;
    if (form == Form.DIAGONAL) {
      for (int a = 0; a < m; a++) {
        s += Math.log(variances[a * categories + k]);
      }
      return s;
    }
    double[] l = factor(k);
    for (int a = 0; a < m; a++) {
      s -= 2 * Math.log(l[a * m + a]);
    }
    return s;
  }

  /** tr(Lambda0 Sigma_k); scratch holds M x M. */
  double traceWithPriorPrecision(int k, double[] scratch) {
    int m = dimension;
    double[] p = prior.precision();
    double s = 0;
    if (form == Form.DIAGONAL) {
      for (int a = 0; a < m; a++) {
        s += p[a * m + a] * variances[a * categories + k];
      }
      return s;
    }
    System.arraycopy(p, 0, scratch, 0, m * m);
    kernels.matrixOps().choleskySolve(m, m, factor(k), 0, m, scratch, 0, m); // Sigma_k Lambda0
    for (int a = 0; a < m; a++) {
      s += scratch[a * m + a];
    }
    return s;
  }

  /** KL(q(beta_k) || N(mu0, Sigma0)), Eq. (D.1.2), given tr(Lambda0 Sigma_k). */
  double klToPrior(int k, double traceWithPriorPrecision) {
    return 0.5
        * (prior.logDetCovariance()
            - logDetCovariance(k)
            - dimension
            + prior.mahalanobis(means, k, categories)
            + traceWithPriorPrecision);
  }

  /** KL(q(B) || pi(B)), summed over the categories. */
  public double klToPrior() {
    double[] scratch = new double[dimension * dimension];
    double s = 0;
    for (int k = 0; k < categories; k++) {
      s += klToPrior(k, traceWithPriorPrecision(k, scratch));
    }
    return s;
  }

  /**
   * Writes one draw B ~ q (M x K row-major) into out. With A = L L^T, A^-1 L eps ~ N(0, A^-1) for
   * eps ~ N(0, I): a product with L and a Cholesky solve, no inverse.
   */
  public void sample(SplittableRandom random, double[] out) {
    int m = dimension;
    int k = categories;
    switch (form) {
      case DIAGONAL -> {
        for (int i = 0; i < m * k; i++) {
          out[i] = means[i] + Math.sqrt(variances[i]) * random.nextGaussian();
        }
      }
      case SHARED_FACTOR -> {
        double[] eps = new double[m * k];
        for (int i = 0; i < eps.length; i++) {
          eps[i] = random.nextGaussian();
        }
        kernels
            .matrixOps()
            .gemm(false, false, m, k, m, 1, sharedFactor, 0, m, eps, 0, k, 0, out, 0, k);
        kernels.matrixOps().choleskySolve(m, k, sharedFactor, 0, m, out, 0, k);
        for (int i = 0; i < m * k; i++) {
          out[i] += means[i];
        }
      }
      case FACTOR_PER_CATEGORY -> {
        double[] eps = new double[m];
        double[] draw = new double[m];
        for (int c = 0; c < k; c++) {
          for (int a = 0; a < m; a++) {
            eps[a] = random.nextGaussian();
          }
          kernels.matrixOps().gemv(false, m, m, 1, factors[c], 0, m, eps, 0, 0, draw, 0);
          kernels.matrixOps().choleskySolve(m, 1, factors[c], 0, m, draw, 0, 1);
          for (int a = 0; a < m; a++) {
            out[a * k + c] = means[a * k + c] + draw[a];
          }
        }
      }
    }
  }

  /**
   * Factors the symmetric positive definite A (lower triangle given) in place and zeroes its strict
   * upper triangle.
   */
  static void factorLower(Kernels kernels, int m, double[] a) {
    kernels.matrixOps().choleskyFactor(m, a, 0, m);
    for (int r = 0; r < m; r++) {
      java.util.Arrays.fill(a, r * m + r + 1, (r + 1) * m, 0.0);
    }
  }
}
