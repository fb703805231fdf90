package org.largecat.train.fullbatch;

import java.util.Locale;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.train.Method;

/**
 * The method {@code auto} picks: {@code exact-softmax} when its full-batch solver's state fits the
 * heap and an estimate of its time fits the budget, else {@code ar-softmax}, whose cost per epoch
 * grows with |S| rather than K.
 *
 * @param method the method picked
 * @param reason why, in a sentence for the user
 */
public record AutomaticMethod(Method method, String reason) {

  /**
   * Passes over the data the solver is assumed to take: on the known-truth problems of
   * docs/training.md it converged in 23 to 102.
   */
  static final int ASSUMED_PASSES = 150;

  /**
   * Multiply-adds per second per thread the estimate assumes for the solver's two products per
   * pass: about half what a pass of double-precision gemm or sparse row updates does on one core.
   */
  static final double ASSUMED_FLOPS_PER_THREAD = 2e9;

  /**
   * How many times one fit's passes a path of prior variances and the final fit take together: the
   * path's strong priors converge in few passes, its weak ones in more.
   */
  static final int PATH_FACTOR = 3;

  /**
   * The choice for {@code train} with {@code threads} threads and a time budget of {@code seconds};
   * {@code priorPath} when the solver will choose its prior on a path of fits.
   */
  public static AutomaticMethod choose(
      Dataset train, int threads, double seconds, boolean priorPath) {
    boolean sparse = train.features() instanceof SparseFeatures;
    long bytes =
        FullBatchSoftmax.bytesNeeded(
            train.rows(), train.columns(), train.classes(), sparse, threads);
    long heap = Runtime.getRuntime().maxMemory();
    if (bytes > heap / 2) {
      return new AutomaticMethod(
          Method.AR_SOFTMAX,
          String.format(
              Locale.ROOT,
              "exact-softmax's L-BFGS state needs %.1f MB, more than half the %.0f MB heap",
              bytes / 1e6,
              heap / 1e6));
    }
    // Two products per pass: scores X·Wᵀ and the gradient (P − Y)ᵀ·X, each rows × stored × K.
    double stored =
        sparse ? train.features().storedValues() : (double) train.rows() * train.columns();
    int passes = ASSUMED_PASSES * (priorPath ? PATH_FACTOR : 1);
    double estimate = passes * 2 * stored * train.classes() / (ASSUMED_FLOPS_PER_THREAD * threads);
    if (estimate > seconds) {
      return new AutomaticMethod(
          Method.AR_SOFTMAX,
          String.format(
              Locale.ROOT,
              "exact-softmax would take an estimated %.0f s (%d passes over %.3g stored values ×"
                  + " K = %d), more than %.0f s",
              estimate,
              passes,
              stored,
              train.classes(),
              seconds));
    }
    return new AutomaticMethod(
        Method.EXACT_SOFTMAX,
        String.format(
            Locale.ROOT,
            "the full-batch solver fits: %.1f MB of state, an estimated %.0f s at most%s",
            bytes / 1e6,
            estimate,
            priorPath ? ", its prior's path included" : ""));
  }
}
