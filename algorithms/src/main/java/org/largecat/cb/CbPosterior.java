package org.largecat.cb;

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
