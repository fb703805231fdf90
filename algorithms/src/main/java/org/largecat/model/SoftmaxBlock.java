package org.largecat.model;

import org.largecat.kernel.Kernels;

/**
 * The scores of a block of dense rows against all K classes of a linear model, ψ = X_B Wᵀ + b by
 * one float gemm, for the caller to turn row by row into the softmax's log-normaliser log Σ_k
 * e^{ψ_k} and probabilities by {@link org.largecat.kernel.VectorOps#softmax} (A&R Eq. 1). The
 * caller keeps the block small, so no N × K matrix is ever held.
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
    int classes = model.classes();
    int columns = model.columns();
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
    double[] b = model.biases();
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
              false,
              true,
              rows,
              classes,
              columns,
              1f,
              x,
              xOff,
              columns,
              model.weights(),
              0,
              columns,
              1f,
              scores,
              scoresOff,
              classes);
    }
  }
}
