package org.largecat.cli;

import java.util.Objects;
import org.largecat.train.TrainingOptions;
import picocli.CommandLine.Option;

/**
 * The mini-batch sizes and the seed, shared by {@code train}, {@code tune} and {@code spark train}.
 */
final class BatchOptions {
  @Option(
      names = "--batch",
      paramLabel = "B",
      converter = OptionTypes.Count.class,
      description = "Examples per step, n (default: the method's).")
  Integer batch;

  @Option(
      names = "--sampled",
      paramLabel = "S",
      converter = OptionTypes.Count.class,
      description = "Classes sampled per step, m (default: the method's).")
  Integer sampled;

  @Option(names = "--seed", paramLabel = "N", description = "The random seed (default: 1).")
  Long seed;

  /** {@code defaults} with the sizes and seed given. */
  TrainingOptions apply(TrainingOptions defaults) {
    return defaults
        .withBatch(
            Objects.requireNonNullElse(batch, defaults.batch()),
            Objects.requireNonNullElse(sampled, defaults.sampled()))
        .withSeed(Objects.requireNonNullElse(seed, defaults.seed()));
  }
}
