package org.largecat.cb;

/**
 * Settings of one IB-CAVI run.
 *
 * @param link the base model's link
 * @param diagonal the fully mean-field family q(B) = prod_m prod_k q(beta_mk) of Secs. D.4 / E.4
 *     instead of a full covariance per category
 * @param maxIterations the most CAVI iterations (updates of q(B)) to run
 * @param tolerance stop once the ELBO rose by at most {@code tolerance * |ELBO|} in one iteration
 *     (0: run all iterations)
 * @param threads worker threads across category blocks
 */
public record CaviOptions(
    Link link, boolean diagonal, int maxIterations, double tolerance, int threads) {

  public CaviOptions {
    if (link == null) {
      throw new IllegalArgumentException("link must be given (probit or logit)");
    }
    if (maxIterations < 1) {
      throw new IllegalArgumentException("iterations = " + maxIterations + " must be >= 1");
    }
    if (!(tolerance >= 0 && tolerance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("tolerance = " + tolerance + " must be finite and >= 0");
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads = " + threads + " must be >= 1");
    }
  }

  /** The full-covariance family, 200 iterations at most, relative tolerance 1e-6, all cores. */
  public static CaviOptions of(Link link) {
    return new CaviOptions(link, false, 200, 1e-6, Runtime.getRuntime().availableProcessors());
  }

  public CaviOptions withDiagonal(boolean value) {
    return new CaviOptions(link, value, maxIterations, tolerance, threads);
  }

  public CaviOptions withIterations(int value) {
    return new CaviOptions(link, diagonal, value, tolerance, threads);
  }

  public CaviOptions withTolerance(double value) {
    return new CaviOptions(link, diagonal, maxIterations, value, threads);
  }

  public CaviOptions withThreads(int value) {
    return new CaviOptions(link, diagonal, maxIterations, tolerance, value);
  }
}
