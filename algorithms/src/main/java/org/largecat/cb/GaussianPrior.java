package org.largecat.cb;

import java.util.Arrays;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.NotPositiveDefiniteException;

/**
 * The prior N(mu0, Sigma0) on every category's weights beta_k (Eqs. D.2.1a, E.2.1a), over the M
 * columns of the design (the intercept first). Keeps what CAVI and the ELBO use: the precision
 * Lambda0 = Sigma0^-1, Lambda0 mu0 and log|Sigma0|, all from one Cholesky factor of Sigma0.
 */
public final class GaussianPrior {
  private final int dimension;
  private final double[] mean;
  private final double[] precision;
  private final double[] precisionTimesMean;
  private final double logDetCovariance;

  private GaussianPrior(
      int dimension,
      double[] mean,
      double[] precision,
      double[] precisionTimesMean,
      double logDetCovariance) {
    this.dimension = dimension;
    this.mean = mean;
    this.precision = precision;
    this.precisionTimesMean = precisionTimesMean;
    this.logDetCovariance = logDetCovariance;
  }

  /** N(0, variance * I) in dimension M. */
  public static GaussianPrior isotropic(int dimension, double variance) {
    if (dimension < 1) {
      throw new IllegalArgumentException("prior dimension = " + dimension + " must be >= 1");
    }
    if (!(variance > 0 && variance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "prior variance = " + variance + " must be positive and finite");
    }
    double[] covariance = new double[dimension * dimension];
    for (int m = 0; m < dimension; m++) {
      covariance[m * dimension + m] = variance;
    }
    return of(new double[dimension], covariance, Kernels.of("scalar"));
  }

  /** N(mean, covariance), the covariance M x M row-major, symmetric positive definite. */
  public static GaussianPrior of(double[] mean, double[] covariance, Kernels kernels) {
    int d = mean.length;
    if (d < 1 || covariance.length != d * d) {
      throw new IllegalArgumentException(
          "prior mean has "
              + d
              + " entries, covariance "
              + covariance.length
              + "; expected M >= 1 and M x M");
    }
    for (int i = 0; i < d * d; i++) {
      if (!Double.isFinite(covariance[i]) || (i < d && !Double.isFinite(mean[i]))) {
        throw new IllegalArgumentException("prior mean and covariance must be finite");
      }
      if (covariance[i] != covariance[(i % d) * d + i / d]) {
        throw new IllegalArgumentException(
            "prior covariance is not symmetric at (" + i / d + ", " + i % d + ")");
      }
    }
    double[] factor = covariance.clone();
    try {
      kernels.matrixOps().choleskyFactor(d, factor, 0, d);
    } catch (NotPositiveDefiniteException e) {
      throw new IllegalArgumentException("prior covariance is not positive definite", e);
    }
    double logDet = 0;
    for (int m = 0; m < d; m++) {
      logDet += 2 * Math.log(factor[m * d + m]);
    }
    double[] precision = new double[d * d];
    for (int m = 0; m < d; m++) {
      precision[m * d + m] = 1;
    }
    kernels.matrixOps().choleskySolve(d, d, factor, 0, d, precision, 0, d);
    Design.symmetrize(d, precision); // the solve is symmetric up to rounding; keep it exactly so
    double[] pm = new double[d];
    kernels.matrixOps().gemv(false, d, d, 1, precision, 0, d, mean, 0, 0, pm, 0);
    return new GaussianPrior(d, mean.clone(), precision, pm, logDet);
  }

  /** M, the number of weights per category. */
  public int dimension() {
    return dimension;
  }

  /** mu0. */
  public double[] mean() {
    return mean.clone();
  }

  double meanAt(int m) {
    return mean[m];
  }

  /** Lambda0 = Sigma0^-1, M x M row-major (shared, not copied: callers do not write it). */
  double[] precision() {
    return precision;
  }

  double precisionTimesMean(int m) {
    return precisionTimesMean[m];
  }

  double logDetCovariance() {
    return logDetCovariance;
  }

  /** (mu - mu0)^T Lambda0 (mu - mu0) for mu = column k of the M x K row-major matrix means. */
  double mahalanobis(double[] means, int k, int categories) {
    double s = 0;
    for (int a = 0; a < dimension; a++) {
      double da = means[a * categories + k] - mean[a];
      double row = 0;
      for (int b = 0; b < dimension; b++) {
        row += precision[a * dimension + b] * (means[b * categories + k] - mean[b]);
      }
      s += da * row;
    }
    return s;
  }

  @Override
  public String toString() {
    return "N(" + Arrays.toString(mean) + ", M=" + dimension + ")";
  }
}
