package org.largecat.train.doublesum;

import org.largecat.data.Dataset;
import org.largecat.data.Features;
import org.largecat.kernel.VectorOps;
import org.largecat.model.LinearModel;

/**
 * The training data as the double-sum trainers see them: each x_i extended by a constant 1, so that
 * the model's bias b_k is the last weight of the extended row w̃_k = (w_k, b_k) and ψ_k = w̃_k ·
 * x̃_i. Scores, rank-one moves and row scalings of the extended rows go through the kernels.
 */
final class AugmentedData {
  private final Dataset data;
  final Features features;
  final int[] labels;
  final int rows;
  final int classes;
  final int columns;

  /** ‖x̃_i‖² = ‖x_i‖² + 1. */
  final double[] squaredNorm;

  /** mean_i ‖x̃_i‖². */
  final double meanSquaredNorm;

  /** B_x = max_i ‖x̃_i‖ (App. A, Lemma 2). */
  final double maxNorm;

  /**
   * Stored values per row plus one: the cost of one gather-dot or scatter-axpy row, for scheduling.
   */
  final double rowCost;

  AugmentedData(Dataset data, LinearModel model) {
    model.requireShapeOf(data);
    if (data.classes() < 2) {
      throw new IllegalArgumentException(
          "training needs at least 2 classes, the data have " + data.classes());
    }
    this.data = data;
    features = data.features();
    labels = data.labels();
    rows = data.rows();
    classes = data.classes();
    columns = data.columns();
    squaredNorm = new double[rows];
    double max = 0;
    double sum = 0;
    for (int i = 0; i < rows; i++) {
      squaredNorm[i] = features.squaredNorm(i) + 1;
      max = Math.max(max, squaredNorm[i]);
      sum += squaredNorm[i];
    }
    meanSquaredNorm = sum / rows;
    maxNorm = Math.sqrt(max);
    rowCost = features.storedValues() / (double) Math.max(1, rows) + 1;
  }

  /** out[outOff + j] = w̃_{classes[off + j]} · x̃_i for j < count. */
  void scores(
      VectorOps ops,
      LinearModel model,
      int i,
      int[] classes,
      int off,
      int count,
      double[] out,
      int outOff) {
    features.gatherDot(ops, model.weights(), this.classes, i, classes, off, count, out, outOff);
    double[] b = model.biases();
    for (int j = 0; j < count; j++) {
      out[outOff + j] += b[classes[off + j]];
    }
  }

  /** w̃_{classes[off + j]} += coef[coefOff + j] · x̃_i for j < count. */
  void move(
      VectorOps ops,
      LinearModel model,
      int i,
      int[] classes,
      int off,
      int count,
      float[] coef,
      int coefOff) {
    features.scatterAxpy(ops, model.weights(), this.classes, i, classes, off, count, coef, coefOff);
    double[] b = model.biases();
    for (int j = 0; j < count; j++) {
      b[classes[off + j]] += coef[coefOff + j];
    }
  }

  /** w̃_k *= factor. */
  void scaleRow(VectorOps ops, LinearModel model, int k, double factor) {
    if (columns > 0) {
      ops.scale(columns, (float) factor, model.weights(), k * columns);
    }
    model.biases()[k] *= factor;
  }

  /** ‖w̃_k‖². */
  double rowSquaredNorm(VectorOps ops, LinearModel model, int k) {
    float[] w = model.weights();
    double bias = model.biases()[k];
    return (columns > 0 ? ops.dot(columns, w, k * columns, w, k * columns) : 0) + bias * bias;
  }

  /** How many examples carry each label. */
  int[] classCounts() {
    return data.classCounts();
  }
}
