package org.largecat.spark.train;

import java.io.Serializable;

/**
 * A partition's change to the model over a round, as it travels to the driver: each weight table
 * dense, or, when fewer than half its entries changed, as the indices and values of those that did
 * (a sampled step moves only the |S| + 1 rows of each example, and with sparse x only the example's
 * features in them). The biases go dense.
 *
 * @param indices per table, the changed entries' indices in increasing order, or null when dense
 * @param values per table, the changed entries' values, or the whole table when dense
 * @param biases the K biases' changes
 */
record ModelChange(int[][] indices, float[][] values, double[] biases) implements Serializable {

  /** The change {@code dense}, each table kept dense or made sparse, whichever is smaller. */
  static ModelChange of(ModelParameters dense) {
    int tables = dense.tables().length;
    int[][] indices = new int[tables][];
    float[][] values = new float[tables][];
    for (int t = 0; t < tables; t++) {
      float[] table = dense.tables()[t];
      int changed = 0;
      for (float v : table) {
        changed += v != 0 ? 1 : 0;
      }
      if (2L * changed >= table.length) {
        values[t] = table;
        continue;
      }
      indices[t] = new int[changed];
      values[t] = new float[changed];
      for (int i = 0, at = 0; at < changed; i++) {
        if (table[i] != 0) {
          indices[t][at] = i;
          values[t][at++] = table[i];
        }
      }
    }
    return new ModelChange(indices, values, dense.biases());
  }

  /** Adds this change to {@code target}. */
  void addTo(ModelParameters target) {
    for (int t = 0; t < values.length; t++) {
      float[] to = target.tables()[t];
      float[] from = values[t];
      int[] at = indices[t];
      if (at == null) {
        for (int i = 0; i < to.length; i++) {
          to[i] += from[i];
        }
      } else {
        for (int i = 0; i < at.length; i++) {
          to[at[i]] += from[i];
        }
      }
    }
    double[] b = target.biases();
    for (int k = 0; k < b.length; k++) {
      b[k] += biases[k];
    }
  }
}
