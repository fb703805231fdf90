package org.largecat.spark.train;

import java.io.Serializable;

/**
 * What partitions send back after a round: the sum of their models' changes since the round's
 * broadcast model, and the sum of their estimates of their part of the training objective (each the
 * mean of its round's iteration estimates, (N_p/|B|) Σ_B L̂_n).
 */
record RoundResult(ModelParameters change, double bound) implements Serializable {

  /** This result plus {@code other}'s, summed into this one's arrays. */
  RoundResult plus(RoundResult other) {
    change.add(1, other.change);
    return new RoundResult(change, bound + other.bound);
  }
}
