package org.largecat.fit;

import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;

/**
 * The parameters of a model at the epoch whose held-out log-likelihood was the best, kept so that a
 * run which goes on past it (the stopping rule waits for a plateau) returns that epoch's model, not
 * the last one: early stopping on held-out rows.
 */
final class BestEpoch {
  private final ScoreModel model;
  private final float[][] tables;
  private final float[][] saved;
  private final double[] biases;
  private int epoch;
  private int last;
  private double best = Double.NEGATIVE_INFINITY;

  private BestEpoch(ScoreModel model, float[][] tables) {
    this.model = model;
    this.tables = tables;
    this.saved = new float[tables.length][];
    for (int t = 0; t < tables.length; t++) {
      saved[t] = new float[tables[t].length];
    }
    this.biases = new double[model.biases().length];
  }

  /**
   * A keeper of {@code model}'s best epoch, or null when a copy of it would take more than half of
   * the heap still free.
   */
  static BestEpoch of(ScoreModel model) {
    float[][] tables =
        switch (model) {
          case LinearModel linear -> new float[][] {linear.weights()};
          case FactorizedModel factorized ->
              new float[][] {factorized.inputs(), factorized.outputs()};
        };
    long bytes = 8L * model.biases().length;
    for (float[] table : tables) {
      bytes += 4L * table.length;
    }
    Runtime runtime = Runtime.getRuntime();
    long free = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
    return bytes > free / 2 ? null : new BestEpoch(model, tables);
  }

  /** Takes the held-out value after {@code epoch}, keeping the model when it is the best so far. */
  void epoch(int epoch, double value) {
    last = epoch;
    if (value > best) {
      best = value;
      this.epoch = epoch;
      for (int t = 0; t < tables.length; t++) {
        System.arraycopy(tables[t], 0, saved[t], 0, tables[t].length);
      }
      System.arraycopy(model.biases(), 0, biases, 0, biases.length);
    }
  }

  /**
   * Puts the best epoch's parameters back into the model when a later epoch was worse; returns the
   * best epoch, or 0 when the last one was the best.
   */
  int restore() {
    if (epoch == last || epoch == 0) {
      return 0;
    }
    for (int t = 0; t < tables.length; t++) {
      System.arraycopy(saved[t], 0, tables[t], 0, tables[t].length);
    }
    System.arraycopy(biases, 0, model.biases(), 0, biases.length);
    return epoch;
  }

  /** The best held-out value seen. */
  double best() {
    return best;
  }
}
