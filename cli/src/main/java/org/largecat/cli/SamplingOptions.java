package org.largecat.cli;

import org.largecat.fit.Fitter;
import org.largecat.train.Sampling;
import picocli.CommandLine.Option;

/**
 * How the sampled-bound methods draw their classes, shared by {@code train} and {@code spark
 * train}.
 */
final class SamplingOptions {
  @Option(
      names = "--sampling",
      paramLabel = "per-example|shared",
      description =
          "Sampled classes per example or shared by a mini-batch (default: shared with --rank under"
              + " the stopping rule, else per-example).")
  Sampling sampling;

  @Option(
      names = "--sampling-power",
      paramLabel = "P",
      converter = OptionTypes.PositiveNumber.class,
      description = "Sample classes by frequency^P (default: uniformly).")
  double samplingPower;

  /** {@code fitter} drawing classes as these options say. */
  Fitter configure(Fitter fitter) {
    return (sampling == null ? fitter : fitter.sampling(sampling)).samplingPower(samplingPower);
  }
}
