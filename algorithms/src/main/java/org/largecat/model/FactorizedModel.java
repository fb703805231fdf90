package org.largecat.model;

import java.util.Objects;
import org.largecat.MemoryBudget;

/**
 * A factorized (embedding) categorical model: ψ_k = u_k · h(x) + b_k with h(x) = Σ_j x_j v_j, an
 * input table V (D x r) and an output table U (K x r), both row-major float, biases double. It
 * holds (K + D)·r weights where the {@link LinearModel} holds K·D.
 *
 * @param rank r, the width of both tables
 * @param inputs V, D x r: row j is feature j's embedding
 * @param outputs U, K x r: row k is class k's embedding
 */
public record FactorizedModel(
    Link link, int classes, int columns, int rank, float[] inputs, float[] outputs, double[] biases)
    implements ScoreModel {

  public FactorizedModel {
    Objects.requireNonNull(link, "link");
    if (classes < 1 || columns < 0 || rank < 1) {
      throw new IllegalArgumentException(
          "classes = "
              + classes
              + " must be >= 1, columns = "
              + columns
              + " >= 0 and rank = "
              + rank
              + " >= 1");
    }
    if (inputs.length != (long) columns * rank
        || outputs.length != (long) classes * rank
        || biases.length != classes) {
      throw new IllegalArgumentException(
          "inputs has "
              + inputs.length
              + ", outputs "
              + outputs.length
              + " and biases "
              + biases.length
              + " elements; K = "
              + classes
              + ", D = "
              + columns
              + ", r = "
              + rank
              + " needs D·r, K·r and K");
    }
  }

  /** A model with every weight and bias 0; a shape that cannot fit in the heap is refused first. */
  public static FactorizedModel zeros(Link link, int classes, int columns, int rank) {
    int[] lengths = tableLengths(classes, columns, rank);
    return new FactorizedModel(
        link,
        classes,
        columns,
        rank,
        new float[lengths[0]],
        new float[lengths[1]],
        new double[classes]);
  }

  /** D·r and K·r, checked to fit one array each and, with the biases, the heap. */
  public static int[] tableLengths(int classes, int columns, int rank) {
    if (classes < 1 || columns < 0 || rank < 1) {
      throw new IllegalArgumentException(
          "classes = "
              + classes
              + " must be >= 1, columns = "
              + columns
              + " >= 0 and rank = "
              + rank
              + " >= 1");
    }
    MemoryBudget.require(
        4L * rank * ((long) classes + columns) + 8L * classes,
        "a rank-"
            + rank
            + " model of K = "
            + classes
            + " classes and D = "
            + columns
            + " features");
    return new int[] {
      MemoryBudget.arrayLength("the input weights, D × r", Float.BYTES, columns, rank),
      MemoryBudget.arrayLength("the output weights, K × r", Float.BYTES, classes, rank)
    };
  }
}
