package org.largecat.spark.train;

import java.io.Serializable;

/**
 * What a partition sends back after a round: its model's change since the round's broadcast model,
 * and its estimate of its part of the training objective (the mean of its round's iteration
 * estimates, (N_p/|B|) Σ_B L̂_n).
 */
record RoundResult(ModelChange change, double bound) implements Serializable {}
