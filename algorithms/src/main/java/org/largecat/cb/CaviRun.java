package org.largecat.cb;

/**
 * One IB-CAVI run, its rows on this machine ({@link IbCavi}) or in a cluster's partitions: what
 * {@link IbCavi#iterate(CaviRun, CaviOptions)} steps to convergence.
 */
public interface CaviRun extends AutoCloseable {
  /** One CAVI iteration: returns the ELBO of q(B) as it was, then updates q(aux) and q(B). */
  double iterate();

  /** The ELBO of the current q(B) (with the auxiliary factor at its optimum), without updating. */
  double elbo();

  /** The current q(B) (updated in place by later iterations). */
  CbPosterior posterior();

  /** N * K, the cells the ELBO sums over. */
  long cells();

  /** Stops the run's threads or releases its cluster resources. */
  @Override
  void close();
}
