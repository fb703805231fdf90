package org.largecat.train.sampled;

import org.largecat.kernel.VectorOps;
import org.largecat.model.LinearModel;

/**
 * The rows of a {@link LinearModel} as the sampled trainer steps them: each class's last update
 * (the adaptive step decays s lazily over the iterations between), the adaptive step's s of the
 * weights and biases, and per thread a D-long gradient row and the index and step weights of one
 * {@link RowUpdate#step}.
 */
final class LinearRows {
  private final LinearModel model;
  private final VectorOps ops;
  private final RowUpdate rowUpdate;
  private final int columns;
  private final float[] squares;
  private final double[] biasSquares;
  private final int[] rowLast;
  private final RowBuffers[] buffers;

  /** A thread's row of gradient, and the row's index and step weights for one step. */
  private record RowBuffers(float[] gradient, int[] index, float[] fresh, float[] keep) {}

  LinearRows(LinearModel model, VectorOps ops, RowUpdate rowUpdate, int threads) {
    this.model = model;
    this.ops = ops;
    this.rowUpdate = rowUpdate;
    this.columns = model.columns();
    int classes = model.classes();
    squares = rowUpdate.adaptive() ? new float[Math.multiplyExact(classes, columns)] : null;
    biasSquares = rowUpdate.adaptive() ? new double[classes] : null;
    rowLast = new int[classes];
    buffers = new RowBuffers[threads];
    for (int r = 0; r < threads; r++) {
      buffers[r] = new RowBuffers(new float[columns], new int[1], new float[1], new float[1]);
    }
  }

  /** Thread {@code thread}'s gradient row, all zeros between updates. */
  float[] gradient(int thread) {
    return buffers[thread].gradient;
  }

  /**
   * Steps bias k by its summed gradient, marks row k updated at {@code iteration} and returns the
   * iteration of its previous update.
   */
  int stepBias(int k, double gradient, int iteration) {
    int last = rowLast[k];
    rowLast[k] = iteration;
    rowUpdate.bias(model.biases(), biasSquares, k, gradient, last);
    return last;
  }

  /**
   * Applies thread {@code thread}'s gradient row to row k, last updated at iteration {@code last},
   * and clears it.
   */
  void stepRow(int k, int thread, int last) {
    RowBuffers row = buffers[thread];
    row.index[0] = k;
    rowUpdate.weigh(last, row.fresh, row.keep, 0);
    rowUpdate.step(
        ops,
        model.weights(),
        squares,
        columns,
        row.index,
        0,
        1,
        row.gradient,
        0,
        row.fresh,
        row.keep);
  }

  /** Steps the weight at cell c (row-major) by g, last updated at iteration {@code last}. */
  void stepCoordinate(int c, float g, int last) {
    rowUpdate.coordinate(model.weights(), squares, c, g, last);
  }
}
