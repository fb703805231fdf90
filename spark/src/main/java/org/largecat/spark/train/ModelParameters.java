package org.largecat.spark.train;

import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;

/**
 * The trainable numbers of a {@link ScoreModel} as float tables and double biases — W for a linear
 * model, V and U for a factorized one — so that one code path copies and differences either kind. A
 * view: the arrays are the model's own.
 *
 * @param tables the weight tables
 * @param biases the K biases
 */
record ModelParameters(float[][] tables, double[] biases) {

  /** The arrays of {@code model}. */
  static ModelParameters of(ScoreModel model) {
    return switch (model) {
      case LinearModel linear ->
          new ModelParameters(new float[][] {linear.weights()}, linear.biases());
      case FactorizedModel f ->
          new ModelParameters(new float[][] {f.inputs(), f.outputs()}, f.biases());
    };
  }

  /** Sets these numbers to {@code source}'s. */
  void assign(ModelParameters source) {
    for (int t = 0; t < tables.length; t++) {
      System.arraycopy(source.tables[t], 0, tables[t], 0, tables[t].length);
    }
    System.arraycopy(source.biases, 0, biases, 0, biases.length);
  }

  /** Subtracts {@code origin} from these numbers, which become the change since it. */
  void subtract(ModelParameters origin) {
    for (int t = 0; t < tables.length; t++) {
      float[] to = tables[t];
      float[] from = origin.tables[t];
      for (int i = 0; i < to.length; i++) {
        to[i] -= from[i];
      }
    }
    for (int k = 0; k < biases.length; k++) {
      biases[k] -= origin.biases[k];
    }
  }
}
