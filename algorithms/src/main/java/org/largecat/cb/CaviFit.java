package org.largecat.cb;

/**
 * The outcome of one IB-CAVI run.
 *
 * @param posterior q(B) after the last update
 * @param elbo the surrogate bound ELBO_IB (Eq. 3.2.2b) of q(B) after t updates at index t, each
 *     evaluated with the auxiliary factor q(z) or q(omega) at its optimum for that q(B); index 0 is
 *     the starting point, the last entry is the returned posterior's
 * @param iterationSeconds the wall time of update t at index t (the first pays for the JIT
 *     compiling the kernels, docs/performance.md)
 * @param iterations the number of updates of q(B) run
 * @param converged whether the relative rise of the ELBO fell to the tolerance
 * @param cells N * K, the number of binary regressions' observations the ELBO sums over
 */
public record CaviFit(
    CbPosterior posterior,
    double[] elbo,
    double[] iterationSeconds,
    int iterations,
    boolean converged,
    long cells) {

  /** The final ELBO. */
  public double finalElbo() {
    return elbo[elbo.length - 1];
  }

  /** The final ELBO divided by N * K (a mean over all cells really divides by all of them). */
  public double finalElboPerCell() {
    return finalElbo() / cells;
  }
}
