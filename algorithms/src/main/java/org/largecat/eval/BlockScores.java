package org.largecat.eval;

import java.util.Arrays;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;

/**
 * The utilities of a block of rows as float gemms, for one thread: X_B Wᵀ for a linear model, (X_B
 * V) Uᵀ for a factorized one, each row starting from the biases; the buffers are reused.
 */
final class BlockScores {
  private final ScoreModel model;
  private final Kernels kernels;

  /**
   * The biases rounded to float, each block row's start; taken afresh for each block, as a model
   * trained in place is scored between epochs.
   */
  private final float[] floatBiases;

  /** A block's left operand when it is not x's own storage: sparse rows made dense, or H. */
  private float[] left = new float[0];

  /** The block's utilities, rows × K. */
  private float[] blockScores = new float[0];

  BlockScores(ScoreModel model, Kernels kernels) {
    this.model = model;
    this.kernels = kernels;
    this.floatBiases = new float[model.classes()];
  }

  /**
   * The utilities of x's rows [first, first + rows), row-major in the returned array (valid until
   * the next call): each row starts as the biases rounded to float and one gemm adds the block's
   * left operand (X_B, or H = X_B V) times W (or U) transposed.
   */
  float[] score(Features x, int first, int rows) {
    int classes = model.classes();
    if (blockScores.length < rows * classes) {
      blockScores = new float[Math.multiplyExact(Predictor.blockRows(classes), classes)];
    }
    float[] a;
    int aOff = 0;
    int inner;
    float[] right;
    switch (model) {
      case LinearModel linear -> {
        inner = linear.columns();
        right = linear.weights();
        switch (x) {
          case DenseFeatures d -> {
            a = d.values();
            aOff = first * inner;
          }
          case SparseFeatures sparse -> a = denseRows(sparse, first, rows);
        }
      }
      case FactorizedModel f -> {
        inner = f.rank();
        right = f.outputs();
        a = embeddings(f, x, first, rows);
      }
    }
    double[] b = model.biases();
    for (int k = 0; k < classes; k++) {
      floatBiases[k] = (float) b[k];
    }
    for (int i = 0; i < rows; i++) {
      System.arraycopy(floatBiases, 0, blockScores, i * classes, classes);
    }
    if (inner == 0) {
      return blockScores;
    }
    kernels
        .matrixOps()
        .gemm(
            false,
            true,
            rows,
            classes,
            inner,
            1f,
            a,
            aOff,
            inner,
            right,
            0,
            inner,
            1f,
            blockScores,
            0,
            classes);
    return blockScores;
  }

  /** The block's sparse rows written densely into {@link #left}. */
  private float[] denseRows(SparseFeatures x, int first, int rows) {
    int columns = x.columns();
    float[] dense = left(rows, columns);
    Arrays.fill(dense, 0, rows * columns, 0f);
    int[] indptr = x.indptr();
    for (int i = 0; i < rows; i++) {
      for (int j = indptr[first + i]; j < indptr[first + i + 1]; j++) {
        dense[i * columns + x.indices()[j]] = x.values()[j];
      }
    }
    return dense;
  }

  /**
   * H = X_B V, rows × r, in {@link #left}: one gemm for dense rows, one gather-axpy of the stored
   * columns' embeddings per sparse row.
   */
  private float[] embeddings(FactorizedModel f, Features x, int first, int rows) {
    int rank = f.rank();
    int columns = f.columns();
    float[] h = left(rows, rank);
    if (x instanceof DenseFeatures d && columns > 0) {
      kernels
          .matrixOps()
          .gemm(
              false,
              false,
              rows,
              rank,
              columns,
              1f,
              d.values(),
              first * columns,
              columns,
              f.inputs(),
              0,
              rank,
              0f,
              h,
              0,
              rank);
    } else {
      Arrays.fill(h, 0, rows * rank, 0f);
      for (int i = 0; i < rows; i++) {
        x.embed(kernels.vectorOps(), f.inputs(), rank, first + i, h, i * rank);
      }
    }
    return h;
  }

  /** {@link #left}, grown to hold a block of {@link Predictor#blockRows} rows of {@code width}. */
  private float[] left(int rows, int width) {
    long size = (long) Math.max(rows, Predictor.blockRows(model.classes())) * width;
    if (left.length < size) {
      left = new float[Math.toIntExact(size)];
    }
    return left;
  }
}
