package org.largecat.model;

import org.largecat.data.Dataset;

/**
 * A categorical model by its mean utilities ψ_k(x) and the {@link Link} that turns them into
 * probabilities: the linear ψ_k = w_k · x + b_k, or the factorized ψ_k = u_k · (Σ_j x_j v_j) + b_k.
 * The sampled bounds see only the utilities, so every trainer of {@code train.sampled} fits both.
 */
public sealed interface ScoreModel permits LinearModel, FactorizedModel {

  Link link();

  /** K. */
  int classes();

  /** D. */
  int columns();

  /** The K biases b_k. */
  double[] biases();

  /** Refuses {@code data} whose K or D differs from this model's. */
  default void requireShapeOf(Dataset data) {
    if (classes() != data.classes() || columns() != data.columns()) {
      throw new IllegalArgumentException(
          "model is K = "
              + classes()
              + ", D = "
              + columns()
              + " but the data are K = "
              + data.classes()
              + ", D = "
              + data.columns());
    }
  }
}
