package org.largecat.cli;

import org.largecat.fit.Fitter;
import picocli.CommandLine.Option;

/**
 * The step-size options, shared by {@code train} and {@code spark train}: {@code --step adaptive}
 * (the default of the A&R methods) is A&R's schedule with ρ₀ = {@code --learning-rate}; {@code
 * --step sgd} (the default and only choice of nce, is and the double-sum methods) is plain SGD at
 * {@code --learning-rate}. The {@link Fitter} chooses the schedule and its defaults.
 */
final class StepOptions {
  @Option(
      names = "--step",
      paramLabel = "adaptive|sgd",
      description =
          "A&R's adaptive schedule (the A&R methods' default) or plain SGD: x0.9 per epoch with"
              + " --epochs or --iterations, else constant between the stopping rule's reductions.")
  Fitter.Step step;

  @Option(
      names = "--learning-rate",
      paramLabel = "X",
      converter = OptionTypes.PositiveNumber.class,
      description =
          "The initial step size (default: the method's; the adaptive step's rho0 is 0.05 under the"
              + " stopping rule (0.02 with --rank), the paper's 0.02 with --epochs or"
              + " --iterations).")
  Double learningRate;

  /** {@code fitter} with the options given. */
  Fitter configure(Fitter fitter) {
    if (step != null) {
      fitter.step(step);
    }
    if (learningRate != null) {
      fitter.learningRate(learningRate);
    }
    return fitter;
  }
}
