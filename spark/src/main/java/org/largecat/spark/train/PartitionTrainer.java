package org.largecat.spark.train;

import java.util.SplittableRandom;
import org.largecat.data.Dataset;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;
import org.largecat.spark.ExecutorKernels;
import org.largecat.spark.eval.ShippedModel;
import org.largecat.train.SampledSpec;
import org.largecat.train.Trainer;
import org.largecat.train.sampled.FactorizedTrainers;
import org.largecat.train.sampled.SampledTrainer;

/**
 * One partition's side of a {@link DistributedTrainer}: its rows, its own copy of the model, and
 * the single-machine trainer over them, whose per-example state (A&R's η_n, the visits behind the
 * local step sizes), adaptive step state and batch order live here from round to round. Each round
 * it takes the driver's model, runs its share of an epoch's iterations with the single-machine
 * step, and keeps the change it made for the driver to combine.
 */
final class PartitionTrainer {
  private final int partition;
  private final Dataset data;
  private ScoreModel local;
  private Trainer trainer;
  private int round;
  private double stepScale = 1;
  private double bound;

  /**
   * For partition {@code partition}'s rows and {@code copy}, its own model of the driver's shape
   * (its numbers come with each round); its trainer draws from its own seed, derived from {@code
   * options.seed()} and the partition index, on one thread (Spark runs the partitions in parallel),
   * so it holds no threads to release.
   *
   * @throws IllegalArgumentException when the partition has rows but fewer mini-batches an epoch
   *     than {@code roundsPerEpoch}
   */
  PartitionTrainer(
      int partition, Dataset data, ScoreModel copy, SampledSpec options, int roundsPerEpoch) {
    this.partition = partition;
    this.data = data;
    if (data.rows() == 0) {
      return;
    }
    SampledSpec own =
        options.toBuilder()
            .seed(
                new SplittableRandom(options.seed() ^ (0x9E3779B97F4A7C15L * partition)).nextLong())
            .threads(1)
            .build();
    local = copy;
    trainer =
        switch (local) {
          case LinearModel linear -> new SampledTrainer(data, linear, own, ExecutorKernels.get());
          case FactorizedModel f -> FactorizedTrainers.create(data, f, own, ExecutorKernels.get());
        };
    if (trainer.iterationsPerEpoch() < roundsPerEpoch) {
      throw new IllegalArgumentException(
          "partition "
              + partition
              + " has "
              + data.rows()
              + " rows, "
              + trainer.iterationsPerEpoch()
              + " mini-batches an epoch, fewer than the "
              + roundsPerEpoch
              + " rounds an epoch; lower roundsPerEpoch or the batch size, or use fewer"
              + " partitions");
    }
  }

  /** The partition's examples. */
  int rows() {
    return data.rows();
  }

  /** Whether the partition has examples to train on. */
  boolean trains() {
    return data.rows() > 0;
  }

  /**
   * Runs round {@code round} from the driver's {@code global} model: the iterations that take the
   * partition's count from ⌊(round − 1)·I/R⌋ to ⌊round·I/R⌋, with I its iterations per epoch and R
   * = {@code roundsPerEpoch}, so that R rounds make one epoch of every partition. Returns this.
   */
  PartitionTrainer round(int round, ShippedModel global, int roundsPerEpoch, double stepScale) {
    if (round != this.round + 1) {
      throw new IllegalStateException(
          "partition "
              + partition
              + " lost its trainer's state after round "
              + this.round
              + " (evicted from memory or its executor lost) and cannot rebuild it at round "
              + round
              + "; give the executors more memory (spark.executor.memory, spark.memory.fraction)");
    }
    this.round = round;
    if (!trains()) {
      return this;
    }
    ModelParameters mine = ModelParameters.of(local);
    ModelParameters origin = new ModelParameters(global.tables(), global.biases());
    mine.assign(origin);
    if (stepScale != this.stepScale) {
      trainer.scaleStepSize(stepScale / this.stepScale);
      this.stepScale = stepScale;
    }
    long perEpoch = trainer.iterationsPerEpoch();
    long iterations = round * perEpoch / roundsPerEpoch - (round - 1) * perEpoch / roundsPerEpoch;
    double sum = 0;
    for (long i = 0; i < iterations; i++) {
      sum += trainer.step();
    }
    bound = sum / iterations;
    mine.subtract(origin);
    return this;
  }

  /** The last round's change to the model and its bound estimate. */
  RoundResult result() {
    return new RoundResult(ModelChange.of(ModelParameters.of(local)), bound);
  }
}
