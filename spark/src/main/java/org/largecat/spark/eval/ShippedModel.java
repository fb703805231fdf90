package org.largecat.spark.eval;

import java.io.Serializable;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;

/**
 * A {@link ScoreModel} in the form Spark ships to tasks (a broadcast): its link, K, D, rank (0 for
 * a linear model), weight tables — W, or V and U — and biases.
 */
public record ShippedModel(
    Link link, int classes, int columns, int rank, float[][] tables, double[] biases)
    implements Serializable {

  /** A view of {@code model}'s arrays, not a copy. */
  public static ShippedModel of(ScoreModel model) {
    return switch (model) {
      case LinearModel m ->
          new ShippedModel(
              m.link(), m.classes(), m.columns(), 0, new float[][] {m.weights()}, m.biases());
      case FactorizedModel m ->
          new ShippedModel(
              m.link(),
              m.classes(),
              m.columns(),
              m.rank(),
              new float[][] {m.inputs(), m.outputs()},
              m.biases());
    };
  }

  /** A copy with arrays of its own. */
  public ShippedModel copy() {
    float[][] copies = new float[tables.length][];
    for (int t = 0; t < tables.length; t++) {
      copies[t] = tables[t].clone();
    }
    return new ShippedModel(link, classes, columns, rank, copies, biases.clone());
  }

  /** The model over these arrays. */
  public ScoreModel model() {
    return rank == 0
        ? new LinearModel(link, classes, columns, tables[0], biases)
        : new FactorizedModel(link, classes, columns, rank, tables[0], tables[1], biases);
  }

  /** A model of this shape and link with every number 0. */
  public ScoreModel zeros() {
    return zeros(link, classes, columns, rank);
  }

  /** A model of {@code link}, K, D and rank (0: linear) with every number 0. */
  public static ScoreModel zeros(Link link, int classes, int columns, int rank) {
    return rank == 0
        ? LinearModel.zeros(link, classes, columns)
        : FactorizedModel.zeros(link, classes, columns, rank);
  }
}
