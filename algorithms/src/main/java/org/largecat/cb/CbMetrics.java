package org.largecat.cb;

/** Holdout metrics of App. G.1.2 / G.2.1 over N x K row-major log-probabilities. */
public final class CbMetrics {
  private CbMetrics() {}

  /** Mean holdout log-likelihood (1/N) sum_i log p(y_i | x_i), Eq. (G.1.2). */
  public static double meanLogLikelihood(double[] logProbabilities, int categories, int[] labels) {
    double s = 0;
    for (int i = 0; i < labels.length; i++) {
      s += logProbabilities[i * categories + labels[i]];
    }
    return s / labels.length;
  }

  /**
   * Accuracy of the most probable category, a C-way tie for the maximum earning 1/C when the label
   * is among them.
   */
  public static double accuracy(double[] logProbabilities, int categories, int[] labels) {
    double credit = 0;
    for (int i = 0; i < labels.length; i++) {
      int off = i * categories;
      double best = Double.NEGATIVE_INFINITY;
      int ties = 0;
      for (int k = 0; k < categories; k++) {
        double v = logProbabilities[off + k];
        if (v > best) {
          best = v;
          ties = 1;
        } else if (v == best) {
          ties++;
        }
      }
      if (logProbabilities[off + labels[i]] == best) {
        credit += 1.0 / ties;
      }
    }
    return credit / labels.length;
  }

  /**
   * Mean over rows of KL(p_true || p) (App. G.2.1), true probabilities N x K; cells with p_true = 0
   * add 0.
   */
  public static double meanKl(
      double[] trueProbabilities, double[] logProbabilities, int categories) {
    int rows = trueProbabilities.length / categories;
    double s = 0;
    for (int i = 0; i < rows * categories; i++) {
      double p = trueProbabilities[i];
      if (p > 0) {
        s += p * (Math.log(p) - logProbabilities[i]);
      }
    }
    return s / rows;
  }
}
