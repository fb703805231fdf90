package org.largecat.eval;

import org.largecat.data.Features;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;

/**
 * The class probabilities of a {@link LinearModel} for one example at a time: all K utilities ψ = W
 * x + b by one gather-dot, then the link's log-probabilities — closed form for the softmax, {@link
 * UtilityModelQuadrature} for probit and logistic. One per thread; reused.
 */
public final class Predictor {
  private final LinearModel model;
  private final Kernels kernels;
  private final int[] allClasses;
  private final UtilityModelQuadrature quadrature;

  public Predictor(LinearModel model, Kernels kernels) {
    this.model = model;
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
   * psi[k] = w_k · x_row + b_k for every class.
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
    x.gatherDot(
        kernels.vectorOps(),
        model.weights(),
        model.classes(),
        row,
        allClasses,
        0,
        allClasses.length,
        psi,
        0);
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

  /** log p(y | ψ) under the model's link. */
  public double logProbability(double[] psi, int y) {
    return switch (model.link()) {
      case SOFTMAX -> psi[y] - kernels.vectorOps().logSumExp(psi.length, psi, 0);
      case PROBIT, LOGISTIC -> quadrature.logProbability(psi, 0, psi.length, y);
    };
  }

  /** out[k] = log p(k | ψ) for every class. */
  public void logProbabilities(double[] psi, double[] out) {
    switch (model.link()) {
      case SOFTMAX -> {
        double logZ = kernels.vectorOps().logSumExp(psi.length, psi, 0);
        for (int k = 0; k < psi.length; k++) {
          out[k] = psi[k] - logZ;
        }
      }
      case PROBIT, LOGISTIC -> quadrature.logProbabilities(psi, 0, psi.length, out, 0);
    }
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
