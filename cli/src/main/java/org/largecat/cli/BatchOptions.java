package org.largecat.cli;

import org.largecat.fit.Fitter;
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

  /** {@code fitter} with the sizes and seed given. */
  Fitter configure(Fitter fitter) {
    if (batch != null) {
      fitter.batch(batch);
    }
    if (sampled != null) {
      fitter.sampled(sampled);
    }
    if (seed != null) {
      fitter.seed(seed);
    }
    return fitter;
  }
}
