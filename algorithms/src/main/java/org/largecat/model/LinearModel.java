package org.largecat.model;

import java.util.Objects;
import org.largecat.MemoryBudget;

/**
 * A linear categorical model: mean utilities ψ_k = w_k · x + b_k (A&R §4), weights K x D row-major
 * float, biases double, and the {@link Link} that turns utilities into probabilities.
 */
public record LinearModel(Link link, int classes, int columns, float[] weights, double[] biases)
    implements ScoreModel {

  public LinearModel {
    Objects.requireNonNull(link, "link");
    if (classes < 1 || columns < 0) {
      throw new IllegalArgumentException(
          "classes = " + classes + " must be >= 1 and columns = " + columns + " >= 0");
    }
    if (weights.length != (long) classes * columns || biases.length != classes) {
      throw new IllegalArgumentException(
          "weights has "
              + weights.length
              + " and biases "
              + biases.length
              + " elements; K = "
              + classes
              + ", D = "
              + columns
              + " needs K·D and K");
    }
  }

  /** A model with every weight and bias 0; a shape that cannot fit in the heap is refused first. */
  public static LinearModel zeros(Link link, int classes, int columns) {
    return new LinearModel(
        link, classes, columns, new float[weightCount(classes, columns)], new double[classes]);
  }

  /** K·D, checked to fit one array and, with the biases, the heap. */
  public static int weightCount(int classes, int columns) {
    if (classes < 1 || columns < 0) {
      throw new IllegalArgumentException(
          "classes = " + classes + " must be >= 1 and columns = " + columns + " >= 0");
    }
    long count = (long) classes * columns;
    MemoryBudget.require(
        4 * count + 8L * classes,
        "a model of K = " + classes + " classes and D = " + columns + " features");
    return MemoryBudget.arrayLength(
        count, Float.BYTES, "K × D = " + classes + " × " + columns + " weights");
  }
}
