package org.largecat.data;

import org.largecat.kernel.VectorOps;

/**
 * The feature rows x_n of a dataset, dense or CSR-sparse, with the two batched kernels every
 * sampled trainer runs per example: scores of a class subset against x_n, and a rank-one update of
 * those classes' weight rows along x_n; and the sum of coefficients times rows of x that makes one
 * class's gradient row. A dataset with no columns (a bias-only model) has scores 0.
 */
public sealed interface Features permits DenseFeatures, SparseFeatures {

  /** Number of rows N. */
  int rows();

  /** Number of columns D (may be 0). */
  int columns();

  /** Number of stored values: N·D when dense. */
  long storedValues();

  /** out[outOff + i] = W[classes[off + i]] . x_row for i < count, W the k x D row-major weights. */
  void gatherDot(
      VectorOps ops,
      float[] w,
      int k,
      int row,
      int[] classes,
      int off,
      int count,
      double[] out,
      int outOff);

  /** W[classes[off + i]] += coef[coefOff + i] * x_row for i < count. */
  void scatterAxpy(
      VectorOps ops,
      float[] w,
      int k,
      int row,
      int[] classes,
      int off,
      int count,
      float[] coef,
      int coefOff);

  /**
   * y[yOff + j] += coef[coefOff + i] * x_{rows[rowsOff + i]}[j] for i < count, j < D, in order of
   * i.
   */
  void gatherAxpy(
      VectorOps ops,
      int[] rows,
      int rowsOff,
      int count,
      float[] coef,
      int coefOff,
      float[] y,
      int yOff);

  /**
   * h[hOff..hOff+width) += Σ_j x_row[j] · E[j], E the D x width row-major table {@code table}: the
   * embedding of row {@code row} (the input side of a factorized model).
   */
  void embed(VectorOps ops, float[] table, int width, int row, float[] h, int hOff);

  /**
   * Writes row {@code row}'s nonzero columns, increasing, and their values at columns[off..),
   * values[off..), and returns their count (at most D).
   */
  int nonzeros(int row, int[] columns, float[] values, int off);

  /** Returns ||x_row||². */
  double squaredNorm(int row);

  /** Returns the value at (row, column). */
  float get(int row, int column);

  /** Returns the rows listed, in that order. */
  Features subset(int[] rowIndices);

  /**
   * Returns a copy in which every column is divided by its factor (factors of 0 leave it as is).
   */
  Features scaleColumns(float[] factors);

  /** Returns the largest absolute value in each column. */
  float[] columnMaxAbs();
}
