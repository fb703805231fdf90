package org.largecat.train.fullbatch;

import java.util.Locale;
import java.util.function.DoubleSupplier;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.train.Method;

/**
 * The method {@code auto} picks: {@code exact-softmax} when its full-batch solver's state fits the
 * heap and an estimate of its time, from a pass timed on the data, fits the budget, else {@code
 * ar-softmax}, whose cost per epoch grows with |S| rather than K.
 *
 * @param method the method picked
 * @param reason why, in a sentence for the user
 * @param estimatedSeconds the time the choice expects the fit to take, NaN when it made no estimate
 */
public record AutomaticMethod(Method method, String reason, double estimatedSeconds) {

  /** A choice with no estimate of its time. */
  public AutomaticMethod(Method method, String reason) {
    this(method, reason, Double.NaN);
  }

  /**
   * How far past the budget the assumed rate may put the full-batch solver and its pass still be
   * timed: a timed pass has run up to five times faster than {@link #ASSUMED_FLOPS_PER_THREAD}.
   */
  static final double TIMED_WITHIN = 10;

  /**
   * Passes over the data the solver is assumed to take: on the known-truth problems of
   * docs/training.md it converged in 23 to 102.
   */
  static final int ASSUMED_PASSES = 150;

  /**
   * Multiply-adds per second per thread assumed for the solver's two products per pass before any
   * is timed, to leave untimed a solver far too slow for the budget: about half what a pass of
   * double-precision gemm or sparse row updates does on one core.
   */
  static final double ASSUMED_FLOPS_PER_THREAD = 2e9;

  /**
   * Multiply-adds per second per thread of float gemm assumed for exact-softmax-sgd's factorized
   * step before it is timed, to leave untimed a step far too slow for the budget: a fraction of a
   * core's peak, for the blocks of a mini-batch.
   */
  static final double GEMM_FLOPS_PER_THREAD = 4e9;

  /**
   * How many times one fit's passes a path of prior variances and the final fit take together: the
   * path's strong priors converge in few passes, its weak ones in more.
   */
  static final int PATH_FACTOR = 3;

  /**
   * Epochs the estimate for exact-softmax-sgd on a factorized model assumes: under the stopping
   * rule, watching held-out rows, it stopped after 25 to 30 on sparse rank-16 data.
   */
  static final int ASSUMED_EPOCHS = 50;

  /**
   * The choice for a factorized model of {@code rank} on {@code rows} examples of {@code classes}
   * classes: {@code exact-softmax-sgd}, whose step scores all K classes through the rank-wide
   * tables, when {@value #ASSUMED_EPOCHS} epochs of it, at the time {@code secondsPerEpoch}
   * measures here, fit the budget {@code seconds}; else {@code ar-softmax}, whose cost grows with
   * |S| rather than K. Where both fit, the exact step's gradient has no sampling noise, so it ends
   * nearer the best held-out fit. The epoch is not timed when its 4·N·K·r multiply-adds at the
   * assumed gemm rate already put the epochs {@value #TIMED_WITHIN} times past the budget.
   */
  public static AutomaticMethod chooseFactorized(
      long rows,
      int classes,
      int rank,
      int threads,
      double seconds,
      DoubleSupplier secondsPerEpoch) {
    double assumed =
        ASSUMED_EPOCHS * 4.0 * rows * classes * rank / (GEMM_FLOPS_PER_THREAD * threads);
    if (assumed > TIMED_WITHIN * seconds) {
      return new AutomaticMethod(
          Method.AR_SOFTMAX,
          String.format(
              Locale.ROOT,
              "rank %d: exact-softmax-sgd would take an estimated %.0f s for %d epochs of K = %d"
                  + " scores an example (at %.0e multiply-adds a second a thread), far more than"
                  + " %.0f s",
              rank,
              assumed,
              ASSUMED_EPOCHS,
              classes,
              GEMM_FLOPS_PER_THREAD,
              seconds));
    }
    double perEpoch = secondsPerEpoch.getAsDouble();
    double estimate = ASSUMED_EPOCHS * perEpoch;
    String timed =
        String.format(
            Locale.ROOT,
            "about %.0f s for %d epochs at %.3g s an epoch, timed here",
            estimate,
            ASSUMED_EPOCHS,
            perEpoch);
    return estimate <= seconds
        ? new AutomaticMethod(
            Method.EXACT_SOFTMAX_SGD,
            String.format(
                Locale.ROOT,
                "rank %d: the exact gradient through the tables fits, %s",
                rank,
                timed),
            estimate)
        : new AutomaticMethod(
            Method.AR_SOFTMAX,
            String.format(
                Locale.ROOT,
                "rank %d: exact-softmax-sgd would take %s, more than %.0f s",
                rank,
                timed,
                seconds));
  }

  /** The passes over the data the estimate assumes: one fit's, or a path's with its final fit. */
  public static int assumedPasses(boolean priorPath) {
    return ASSUMED_PASSES * (priorPath ? PATH_FACTOR : 1);
  }

  /**
   * The choice for {@code train} with {@code threads} threads and a time budget of {@code seconds};
   * {@code priorPath} when the solver will choose its prior on a path of fits. The full-batch
   * solver's pass is timed here ({@link FullBatchSoftmax#secondsPerPass}) unless the assumed rate
   * already puts it far past the budget; the solver is chosen when one fit's passes fit the budget,
   * as its prior's path stops at half the budget with the best variance so far.
   */
  public static AutomaticMethod choose(
      Dataset train, int threads, double seconds, boolean priorPath, Kernels kernels) {
    return choose(
        train,
        threads,
        seconds,
        priorPath,
        () -> FullBatchSoftmax.secondsPerPass(train, threads, kernels));
  }

  /**
   * {@link #choose(Dataset, int, double, boolean, Kernels)} with the pass timed by {@code
   * secondsPerPass}.
   */
  static AutomaticMethod choose(
      Dataset train,
      int threads,
      double seconds,
      boolean priorPath,
      DoubleSupplier secondsPerPass) {
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
    double assumed =
        ASSUMED_PASSES * 2 * stored * train.classes() / (ASSUMED_FLOPS_PER_THREAD * threads);
    if (assumed > TIMED_WITHIN * seconds) {
      return new AutomaticMethod(
          Method.AR_SOFTMAX,
          String.format(
              Locale.ROOT,
              "exact-softmax would take an estimated %.0f s (%d passes over %.3g stored values ×"
                  + " K = %d at %.0e multiply-adds a second a thread), far more than %.0f s",
              assumed,
              ASSUMED_PASSES,
              stored,
              train.classes(),
              ASSUMED_FLOPS_PER_THREAD,
              seconds));
    }
    double perPass = secondsPerPass.getAsDouble();
    double fit = ASSUMED_PASSES * perPass;
    if (fit > seconds) {
      return new AutomaticMethod(
          Method.AR_SOFTMAX,
          String.format(
              Locale.ROOT,
              "exact-softmax would take about %.0f s (%d passes at %.3g s a pass, timed here),"
                  + " more than %.0f s",
              fit,
              ASSUMED_PASSES,
              perPass,
              seconds));
    }
    int passes = assumedPasses(priorPath);
    double estimate = passes * perPass;
    return new AutomaticMethod(
        Method.EXACT_SOFTMAX,
        String.format(
            Locale.ROOT,
            "the full-batch solver fits: %.1f MB of state, about %.0f s (%d passes at %.3g s a"
                + " pass, timed here%s)%s",
            bytes / 1e6,
            estimate,
            passes,
            perPass,
            priorPath ? ", its prior's path included" : "",
            estimate > seconds
                ? String.format(
                    Locale.ROOT,
                    "; the path stops at half the %.0f s budget, the final fit at the rest",
                    seconds)
                : ""),
        estimate);
  }
}
