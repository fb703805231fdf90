package org.largecat.cli;

import org.largecat.fit.Fitter;
import picocli.CommandLine.Option;

/** The prior on the weights, shared by {@code train} and {@code spark train}. */
final class PriorOptions {
  @Option(
      names = "--prior-variance",
      paramLabel = "V",
      converter = OptionTypes.NonNegativeNumber.class,
      description =
          "A N(0, V) prior on the weights, MAP; 0: maximum likelihood (default: chosen on the"
              + " held-out rows, by exact-softmax among 1e-3 .. 1e3, by the sampled-bound methods"
              + " among maximum likelihood stopped early and 1, 0.1, 0.01).")
  Double priorVariance;

  /** {@code fitter} with the prior given, if one was. */
  Fitter configure(Fitter fitter) {
    return priorVariance == null ? fitter : fitter.priorVariance(priorVariance);
  }
}
