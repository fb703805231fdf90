package org.largecat.model;

import org.largecat.kernel.Kernels;
import org.largecat.kernel.VectorOps;

/**
 * The scores of a block of rows against all K classes, ψ = X_B Wᵀ + b for a linear model or H_B Uᵀ
 * + b for a factorized one's embeddings, by one float gemm, and each row of them turned into the
 * gradient of −log p(y | x) in ψ by {@link VectorOps#softmax} (A&R Eq. 1). The caller keeps the
 * block small, so no N × K matrix is ever held.
 */
public final class SoftmaxBlock {
  private SoftmaxBlock() {}

  /**
   * scores[scoresOff + i K + k] = b_k + x_i · w_k for the {@code rows} rows of x (row-major, D
   * wide, from {@code xOff}); the biases are rounded to float.
   */
  public static void scores(
      Kernels kernels,
      LinearModel model,
      float[] x,
      int xOff,
      int rows,
      float[] scores,
      int scoresOff) {
    scores(
        kernels,
        model.weights(),
        model.biases(),
        model.columns(),
        x,
        xOff,
        rows,
        scores,
        scoresOff);
  }

  /**
   * scores[scoresOff + i K + k] = b_k + h_i · u_k for the {@code rows} embeddings h (row-major, r
   * wide, from {@code hOff}); the biases are rounded to float.
   */
  public static void scores(
      Kernels kernels,
      FactorizedModel model,
      float[] h,
      int hOff,
      int rows,
      float[] scores,
      int scoresOff) {
    scores(
        kernels, model.outputs(), model.biases(), model.rank(), h, hOff, rows, scores, scoresOff);
  }

  /** b_k + x_i · w_k with W K × {@code columns} row-major, for both models. */
  private static void scores(
      Kernels kernels,
      float[] weights,
      double[] b,
      int columns,
      float[] x,
      int xOff,
      int rows,
      float[] scores,
      int scoresOff) {
    int classes = b.length;
    if (rows < 1 || scoresOff < 0 || scores.length - scoresOff < (long) rows * classes) {
      throw new IllegalArgumentException(
          "scores for "
              + rows
              + " rows of "
              + classes
              + " classes need rows >= 1 and that many cells from "
              + scoresOff
              + ", the buffer has "
              + scores.length);
    }
    for (int k = 0; k < classes; k++) {
      scores[scoresOff + k] = (float) b[k];
    }
    for (int i = 1; i < rows; i++) {
      System.arraycopy(scores, scoresOff, scores, scoresOff + i * classes, classes);
    }
    if (columns > 0) {
      kernels
          .matrixOps()
          .gemm(
              false, true, rows, classes, columns, 1f, x, xOff, columns, weights, 0, columns, 1f,
              scores, scoresOff, classes);
    }
  }

  /**
   * Turns the row scores[off, off + K) into p − e_y, the gradient of −log p(y | x) in ψ (A&R Eq.
   * 1), and returns log p(y | x) = ψ_y − log Σ_k e^{ψ_k}. The sign is the loss's so that the row
   * needs no pass of its own: the caller's gemms take the likelihood's gradient with alpha = −1.
   */
  public static double lossGradient(VectorOps ops, int classes, float[] scores, int off, int y) {
    if (y < 0 || y >= classes) {
      throw new IllegalArgumentException(
          "label " + y + " is not one of the " + classes + " classes");
    }
    float labelScore = scores[off + y];
    double logLikelihood = labelScore - ops.softmax(classes, scores, off);
    scores[off + y] -= 1;
    return logLikelihood;
  }
}
