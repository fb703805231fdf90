package org.largecat.cb;

import java.util.SplittableRandom;
import org.largecat.MemoryBudget;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;

/**
 * The simulated categorical data of App. G.1.1: x_im ~ N(0, 1); weights beta_0k ~ N(0, sigma_int^2)
 * for the intercept and beta_mk ~ N(0, sigma_high^2) when k = ceil(m / S), S = floor(M / K), else
 * N(0, sigma_low^2) (m, k 1-based; covariates past K S predict no category); y_i ~ softmax(B^T (1,
 * x_i)). The paper's defaults are sigma_low^2 = 0.001 and sigma_int^2 = 0.25; sigma_high controls
 * predictability. The same seed gives the same set.
 *
 * @param data the examples (dense, no intercept column: the CB design adds it)
 * @param weights the true B, (M + 1) x K row-major, the intercept row first
 */
public record CbSimulation(Dataset data, double[] weights) {

  /** Draws a set with the given shape and standard deviations. */
  public static CbSimulation generate(
      int rows,
      int classes,
      int covariates,
      double sigmaHigh,
      double sigmaLow,
      double sigmaIntercept,
      long seed) {
    if (rows < 1 || classes < 2 || covariates < 0) {
      throw new IllegalArgumentException(
          "need rows >= 1, classes >= 2 and covariates >= 0; got N = "
              + rows
              + ", K = "
              + classes
              + ", M = "
              + covariates);
    }
    for (double s : new double[] {sigmaHigh, sigmaLow, sigmaIntercept}) {
      if (!(s >= 0 && s < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException("standard deviations must be finite and >= 0; got " + s);
      }
    }
    SplittableRandom random = new SplittableRandom(seed);
    int k = classes;
    int groupSize = covariates / classes;
    double[] b =
        new double
            [MemoryBudget.arrayLength(
                "the weights, (M + 1) × K", Double.BYTES, covariates + 1L, k)];
    MemoryBudget.arrayLength("the covariates, N × M", Float.BYTES, rows, covariates);
    MemoryBudget.arrayLength("the probabilities, N × K", Double.BYTES, rows, k);
    for (int m = 0; m <= covariates; m++) {
      for (int c = 1; c <= k; c++) {
        double sd =
            m == 0
                ? sigmaIntercept
                : groupSize > 0 && c == (m + groupSize - 1) / groupSize ? sigmaHigh : sigmaLow;
        b[m * k + c - 1] = sd * random.nextGaussian();
      }
    }
    float[] x =
        new float[MemoryBudget.arrayLength("the covariates, N × M", Float.BYTES, rows, covariates)];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) random.nextGaussian();
    }
    DenseFeatures features = new DenseFeatures(rows, covariates, x);
    double[] p = softmaxProbabilities(features, b, k);
    int[] labels = new int[rows];
    for (int i = 0; i < rows; i++) {
      double u = random.nextDouble();
      int y = 0;
      double cumulative = p[i * k];
      while (u >= cumulative && y < k - 1) {
        cumulative += p[i * k + ++y];
      }
      labels[i] = y;
    }
    return new CbSimulation(new Dataset(features, labels, k), b);
  }

  /** The true category probabilities softmax(B^T (1, x_i)) of the given rows, N x K row-major. */
  public double[] trueProbabilities(Features features) {
    return softmaxProbabilities(features, weights, data.classes());
  }

  private static double[] softmaxProbabilities(Features features, double[] b, int k) {
    int d = features.columns();
    if ((d + 1) * k != b.length) {
      throw new IllegalArgumentException(
          "features have " + d + " columns; the weights expect " + (b.length / k - 1));
    }
    double[] p =
        new double
            [MemoryBudget.arrayLength(
                "the probabilities, N × K", Double.BYTES, features.rows(), k)];
    for (int i = 0; i < features.rows(); i++) {
      double max = Double.NEGATIVE_INFINITY;
      for (int c = 0; c < k; c++) {
        double s = b[c];
        for (int j = 0; j < d; j++) {
          s += features.get(i, j) * b[(j + 1) * k + c];
        }
        p[i * k + c] = s;
        max = Math.max(max, s);
      }
      double total = 0;
      for (int c = 0; c < k; c++) {
        p[i * k + c] = Math.exp(p[i * k + c] - max);
        total += p[i * k + c];
      }
      for (int c = 0; c < k; c++) {
        p[i * k + c] /= total;
      }
    }
    return p;
  }
}
