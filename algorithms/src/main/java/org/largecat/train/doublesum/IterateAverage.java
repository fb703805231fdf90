package org.largecat.train.doublesum;

import java.util.Arrays;
import org.largecat.kernel.VectorOps;
import org.largecat.model.LinearModel;

/**
 * The average of a double-sum trainer's iterates ({@link
 * org.largecat.train.DoubleSumSpec#averaged}): within an epoch the plain mean of the extended rows
 * w̃_k after each of its T updates, across epochs the polynomial-decay average of those means
 * (Shamir and Zhang 2013): after epoch e, A ← A + ρ(M_e − A) with ρ = (γ + 1)/(e + γ), γ = {@value
 * #EPOCH_WEIGHT_POWER}, which weights epoch e in proportion to about e^γ.
 *
 * <p>Lazily, so that an update costs what it costs the iterate. The trainer keeps each row as w̃_k
 * = g_k r_k (g_k = 1 for a trainer without row scales). With G_k(t) = Σ_{τ ≤ t} g_k(τ) over the
 * epoch's updates so far, the sum of the row over them is S_k(t) = G_k(t) r_k(t) − C_k, where C_k
 * gains G_k(t − 1)·δ whenever update t adds δ to r_k: {@link #moved} scatters that with the same
 * kernel as the move itself. G_k is settled only when g_k changes ({@link #rescaled}), since it
 * grows by g_k per update in between; when the trainer brings r_k up to date, the sum so far moves
 * into C_k ({@link #rebased}). The float C_k spans one epoch, then the epoch's mean folds into the
 * double average, so its rounding does not build up over a run.
 *
 * <p>Rows are independent: threads may update disjoint rows at once, each row's updates coming in
 * the order of their ticks.
 */
final class IterateAverage {
  /** γ, the power of the epoch weights. */
  static final double EPOCH_WEIGHT_POWER = 2;

  private final AugmentedData data;
  private final int classes;
  private final int columns;

  /** C_k of the weights (K × D) and of the biases. */
  private final float[] lagWeights;

  private final double[] lagBiases;

  /** G_k settled at tick {@code settledAt[k]}. */
  private final double[] settledWeight;

  private final long[] settledAt;

  /** The average A: weights in float as the model's (each fold is one blend, not a long sum). */
  private final float[] averageWeights;

  private final double[] averageBiases;
  private int epochs;

  /**
   * A private copy of {@code model} for a trainer to move while {@code model} holds the average.
   */
  static LinearModel iterateOf(LinearModel model) {
    return new LinearModel(
        model.link(),
        model.classes(),
        model.columns(),
        model.weights().clone(),
        model.biases().clone());
  }

  IterateAverage(AugmentedData data) {
    this.data = data;
    this.classes = data.classes;
    this.columns = data.columns;
    lagWeights = new float[classes * columns];
    lagBiases = new double[classes];
    settledWeight = new double[classes];
    settledAt = new long[classes];
    averageWeights = new float[classes * columns];
    averageBiases = new double[classes];
  }

  /** G_k(t − 1): the weight the moves of update {@code tick} to row k take into C_k. */
  private double weightBefore(int k, long tick, double scale) {
    return settledWeight[k] + (tick - 1 - settledAt[k]) * scale;
  }

  /**
   * Before update {@code tick} (from 1 within the epoch) adds coef[coefOff + j]·x̃_i to the stored
   * rows classes[off + j], j &lt; count, whose scales are {@code scales[row]} (null: all 1): the
   * same move of C, each row's coefficient times its G_k(tick − 1). {@code scratch} holds count
   * floats.
   */
  void moved(
      VectorOps ops,
      int i,
      int[] rows,
      int off,
      int count,
      float[] coef,
      int coefOff,
      long tick,
      double[] scales,
      float[] scratch) {
    for (int j = 0; j < count; j++) {
      int k = rows[off + j];
      scratch[j] =
          (float) (coef[coefOff + j] * weightBefore(k, tick, scales == null ? 1 : scales[k]));
    }
    data.features.scatterAxpy(ops, lagWeights, classes, i, rows, off, count, scratch, 0);
    for (int j = 0; j < count; j++) {
      lagBiases[rows[off + j]] += scratch[j];
    }
  }

  /**
   * Before update {@code tick} multiplies the stored row k of {@code iterate} (scale 1) by {@code
   * factor}: the move (factor − 1)·r_k, taken into C_k.
   */
  void scaled(VectorOps ops, LinearModel iterate, int k, double factor, long tick) {
    double lag = (factor - 1) * weightBefore(k, tick, 1);
    if (columns > 0) {
      ops.axpy(columns, (float) lag, iterate.weights(), k * columns, lagWeights, k * columns);
    }
    lagBiases[k] += lag * iterate.biases()[k];
  }

  /**
   * Row k's scale changes from {@code scale} to {@code newScale} during update {@code tick}, the
   * stored row unchanged.
   */
  void rescaled(int k, long tick, double scale, double newScale) {
    settledWeight[k] = weightBefore(k, tick, scale);
    settledAt[k] = tick - 1;
  }

  /**
   * Before update {@code tick} brings row k of {@code iterate} up to date (r_k ← g_k r_k, g_k ← 1,
   * w̃_k unchanged): the sum so far moves into C_k (C_k ← C_k − G_k r_k, G_k ← 0), which costs what
   * the rescaling costs and keeps G_k from growing by 1/g_k at every rebase, which under a strong
   * ridge would make G_k r_k and C_k cancel to no digits left.
   */
  void rebased(VectorOps ops, LinearModel iterate, int k, double scale, long tick) {
    double weight = weightBefore(k, tick, scale);
    if (columns > 0) {
      ops.axpy(columns, (float) -weight, iterate.weights(), k * columns, lagWeights, k * columns);
    }
    lagBiases[k] -= weight * iterate.biases()[k];
    settledWeight[k] = 0;
    settledAt[k] = tick - 1;
  }

  /**
   * Ends an epoch of {@code updates} updates: folds its mean into the average and writes the
   * average to {@code out}. {@code scales} are the rows' scales (null: all 1); the stored rows are
   * those of {@code iterate}. A partial epoch (a run's length need not be whole epochs) folds in
   * the same way, with its own count.
   */
  void endEpoch(LinearModel iterate, double[] scales, long updates, LinearModel out) {
    if (updates == 0) {
      return;
    }
    epochs++;
    double rho = (EPOCH_WEIGHT_POWER + 1) / (epochs + EPOCH_WEIGHT_POWER);
    float[] w = iterate.weights();
    double[] b = iterate.biases();
    for (int k = 0; k < classes; k++) {
      double total = weightBefore(k, updates + 1, scales == null ? 1 : scales[k]);
      for (int c = k * columns; c < (k + 1) * columns; c++) {
        double mean = (total * w[c] - lagWeights[c]) / updates;
        averageWeights[c] += (float) (rho * (mean - averageWeights[c]));
      }
      double mean = (total * b[k] - lagBiases[k]) / updates;
      averageBiases[k] += rho * (mean - averageBiases[k]);
    }
    Arrays.fill(lagWeights, 0);
    Arrays.fill(lagBiases, 0);
    Arrays.fill(settledWeight, 0);
    Arrays.fill(settledAt, 0);
    System.arraycopy(averageWeights, 0, out.weights(), 0, averageWeights.length);
    System.arraycopy(averageBiases, 0, out.biases(), 0, classes);
  }
}
