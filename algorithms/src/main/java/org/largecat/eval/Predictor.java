package org.largecat.eval;

import java.util.Arrays;
import java.util.Locale;
import org.largecat.data.Features;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;

/**
 * The class probabilities of a {@link ScoreModel} for one example at a time: all K utilities, ψ = W
 * x + b for a {@link LinearModel} by one gather-dot, ψ = U h + b with h = Σ_j x_j v_j for a {@link
 * FactorizedModel} by one gemm for a block of consecutive rows, then the link's log-probabilities —
 * closed form for the softmax, {@link UtilityModelQuadrature} for probit and logistic. One per
 * thread; reused.
 */
public final class Predictor {
  private final ScoreModel model;
  private final Kernels kernels;

  /**
   * Rows of a factorized model's utilities computed at once: their h(x) are a {@value #BLOCK} x r
   * block H, and their utilities one gemm H Uᵀ, which runs at the machine's gemm speed where one
   * gather-dot per row would stream U once per example.
   */
  private static final int BLOCK = 32;

  /** A factorized model's H and H Uᵀ, of rows [blockFirst, blockFirst + blockRows) of blockOf. */
  private final float[] embeddings;

  private final float[] blockScores;
  private Features blockOf;
  private int blockFirst;
  private int blockRows;

  private final int[] allClasses;
  private final UtilityModelQuadrature quadrature;

  /**
   * The 1-based number of the example whose utilities were computed last (0: none), for the
   * messages.
   */
  private long example;

  public Predictor(ScoreModel model, Kernels kernels) {
    this.model = model;
    this.embeddings = model instanceof FactorizedModel f ? new float[BLOCK * f.rank()] : null;
    this.blockScores = model instanceof FactorizedModel ? new float[BLOCK * model.classes()] : null;
    this.kernels = kernels;
    this.quadrature =
        model.link() == Link.SOFTMAX
            ? null
            : new UtilityModelQuadrature(
                kernels, NoiseDistribution.of(model.link()), model.classes());
    this.allClasses = new int[model.classes()];
    for (int k = 0; k < allClasses.length; k++) {
      allClasses[k] = k;
    }
  }

  /**
   * psi[k] = ψ_k(x_row) for every class: w_k · x_row + b_k, or u_k · h(x_row) + b_k.
   *
   * @throws NonFiniteScoreException if a score is NaN or infinite (the model or the features
   *     overflow)
   */
  public void utilities(Features x, int row, double[] psi) {
    utilities(x, row, row + 1L, psi);
  }

  /**
   * As {@link #utilities(Features, int, double[])}, where {@code example} is the row's 1-based
   * number in its file (the row of a block is not), which an error names.
   */
  public void utilities(Features x, int row, long example, double[] psi) {
    this.example = example;
    switch (model) {
      case LinearModel linear ->
          x.gatherDot(
              kernels.vectorOps(),
              linear.weights(),
              linear.classes(),
              row,
              allClasses,
              0,
              allClasses.length,
              psi,
              0);
      case FactorizedModel f -> {
        if (x != blockOf || row < blockFirst || row >= blockFirst + blockRows) {
          scoreBlock(f, x, row);
        }
        int at = (row - blockFirst) * f.classes();
        for (int k = 0; k < psi.length; k++) {
          psi[k] = blockScores[at + k];
        }
      }
    }
    double[] b = model.biases();
    for (int k = 0; k < psi.length; k++) {
      psi[k] += b[k];
      if (!Double.isFinite(psi[k])) {
        throw new NonFiniteScoreException(
            "example "
                + example
                + ": the score of class "
                + k
                + " is "
                + psi[k]
                + "; the model's weights or the example's features are too large (or not finite)");
      }
    }
  }

  /** H Uᵀ of x's rows from {@code first} on, as many as the block holds. */
  private void scoreBlock(FactorizedModel f, Features x, int first) {
    int r = f.rank();
    blockOf = x;
    blockFirst = first;
    blockRows = Math.min(BLOCK, x.rows() - first);
    Arrays.fill(embeddings, 0f);
    for (int i = 0; i < blockRows; i++) {
      x.embed(kernels.vectorOps(), f.inputs(), r, first + i, embeddings, i * r);
    }
    kernels
        .matrixOps()
        .gemm(
            false,
            true,
            blockRows,
            f.classes(),
            r,
            1f,
            embeddings,
            0,
            r,
            f.outputs(),
            0,
            r,
            0f,
            blockScores,
            0,
            f.classes());
  }

  /**
   * log p(y | ψ) under the model's link.
   *
   * @throws ArithmeticException naming the example when the utilities are outside the quadrature's
   *     domain
   */
  public double logProbability(double[] psi, int y) {
    return switch (model.link()) {
      case SOFTMAX -> psi[y] - kernels.vectorOps().logSumExp(psi.length, psi, 0);
      case PROBIT, LOGISTIC -> {
        try {
          yield quadrature.logProbability(psi, 0, psi.length, y);
        } catch (ArithmeticException e) {
          throw outsideDomain(e, psi);
        }
      }
    };
  }

  /**
   * out[k] = log p(k | ψ) for every class.
   *
   * @throws ArithmeticException naming the example when the utilities are outside the quadrature's
   *     domain
   */
  public void logProbabilities(double[] psi, double[] out) {
    switch (model.link()) {
      case SOFTMAX -> {
        double logZ = kernels.vectorOps().logSumExp(psi.length, psi, 0);
        for (int k = 0; k < psi.length; k++) {
          out[k] = psi[k] - logZ;
        }
      }
      case PROBIT, LOGISTIC -> {
        try {
          quadrature.logProbabilities(psi, 0, psi.length, out, 0);
        } catch (ArithmeticException e) {
          throw outsideDomain(e, psi);
        }
      }
    }
  }

  /** The quadrature's failure {@code e} told with the example, its utilities' span and the fix. */
  private ArithmeticException outsideDomain(ArithmeticException e, double[] psi) {
    int low = 0;
    int high = 0;
    for (int k = 1; k < psi.length; k++) {
      low = psi[k] < psi[low] ? k : low;
      high = psi[k] > psi[high] ? k : high;
    }
    ArithmeticException told =
        new ArithmeticException(
            String.format(
                Locale.ROOT,
                "%sthe %s probabilities cannot be computed: the utilities span %.6g (class %d: %.6g,"
                    + " class %d: %.6g), too wide for the quadrature (%s); the model's weights are"
                    + " too large for its features: retrain with a smaller --learning-rate, a"
                    + " --prior-variance, or scaled features (--scale-max)",
                example > 0 ? "example " + example + ": " : "",
                model.link().name().toLowerCase(Locale.ROOT),
                psi[high] - psi[low],
                high,
                psi[high],
                low,
                psi[low],
                e.getMessage()));
    told.initCause(e);
    return told;
  }

  /** The number of classes ranked above y: larger ψ, or equal ψ at a smaller index. */
  public static int rank(double[] psi, int y) {
    int above = 0;
    double target = psi[y];
    for (int k = 0; k < psi.length; k++) {
      if (psi[k] > target || (psi[k] == target && k < y)) {
        above++;
      }
    }
    return above;
  }
}
