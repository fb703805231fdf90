package org.largecat.cli;

import java.util.Objects;
import java.util.stream.Stream;
import org.largecat.fit.Fitter;
import picocli.CommandLine.Option;

/**
 * The stopping rule's options, shared by {@code train} and {@code spark train}: each one given is
 * set on the {@link Fitter}, which keeps its own default for the others.
 */
final class StoppingOptions {
  @Option(
      names = "--tol",
      paramLabel = "X",
      converter = OptionTypes.NonNegativeNumber.class,
      description =
          "Without --epochs or --iterations: an epoch whose watched value improves by less than"
              + " X relative counts as no progress (default: 1e-4; 1e-5 for umax, isgd and"
              + " isgd-batch, whose averaged iterate moves less each epoch the longer it runs); the"
              + " value is the log-likelihood of the held-out rows (--validation-fraction), else"
              + " for umax, isgd and isgd-batch given --ridge their objective (the log-likelihood"
              + " less the ridge term) on up to 10,000 training rows, else the log-likelihood of a"
              + " sample of training rows for"
              + " ar-softmax, ove, is, nce and exact-softmax-sgd, else the epoch's mean bound."
              + " exact-softmax stops once an iteration changes the objective by at most X relative"
              + " (default: 1e-10).")
  Double tolerance;

  @Option(
      names = "--patience",
      paramLabel = "N",
      converter = OptionTypes.Count.class,
      description = "Epochs without progress in a row that end training (default: 3).")
  Integer patience;

  @Option(
      names = "--max-epochs",
      paramLabel = "N",
      converter = OptionTypes.Count.class,
      description =
          "The most epochs the stopping rule runs (default: 100; 1,000 for umax, isgd and"
              + " isgd-batch); exact-softmax: the most passes"
              + " over the data, line-search trials included (default: 20000).")
  Integer maxEpochs;

  @Option(
      names = "--step-reductions",
      paramLabel = "N",
      converter = OptionTypes.NonNegativeInteger.class,
      description =
          "On a plateau the stopping rule divides the step size by 5, at most N times, before it"
              + " calls the run converged (default: 4).")
  Integer stepReductions;

  @Option(
      names = "--max-seconds",
      paramLabel = "S",
      converter = OptionTypes.PositiveNumber.class,
      description =
          "The most seconds the fit takes, checked after each epoch (exact-softmax: each"
              + " iteration, its prior's path included) (default: 300).")
  Double maxSeconds;

  @Option(
      names = "--validation-fraction",
      paramLabel = "F",
      converter = OptionTypes.NonNegativeNumber.class,
      description =
          "Hold out this fraction of the training set, drawn with --seed: the stopping rule watches"
              + " its log-likelihood, the model is the epoch best on it, the prior variance is"
              + " chosen on it; 0: none (default: 10%%, 1,000 to 10,000 rows, when no"
              + " --prior-variance or --ridge is given; none for a probit or logistic method).")
  Double validationFraction;

  /** Whether any option of the rule was given. */
  boolean anyGiven() {
    return Stream.of(tolerance, patience, maxEpochs, stepReductions, maxSeconds, validationFraction)
        .anyMatch(Objects::nonNull);
  }

  /** {@code fitter} with the options given. */
  Fitter configure(Fitter fitter) {
    if (tolerance != null) {
      fitter.tolerance(tolerance);
    }
    if (patience != null) {
      fitter.patience(patience);
    }
    if (maxEpochs != null) {
      fitter.maxEpochs(maxEpochs);
    }
    if (stepReductions != null) {
      fitter.stepReductions(stepReductions);
    }
    if (maxSeconds != null) {
      fitter.maxSeconds(maxSeconds);
    }
    if (validationFraction != null) {
      fitter.validationFraction(validationFraction);
    }
    return fitter;
  }
}
