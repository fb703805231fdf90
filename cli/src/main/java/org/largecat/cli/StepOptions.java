package org.largecat.cli;

import java.util.Objects;
import org.largecat.train.Method;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.TrainingOptions;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The step-size options, shared by {@code train} and {@code spark train}: {@code --step adaptive}
 * (the default of the A&R methods) is A&R's schedule with ρ₀ = {@code --learning-rate}; {@code
 * --step sgd} (the default and only choice of nce, is and the double-sum methods) is plain SGD at
 * {@code --learning-rate}, by default {@link TrainingOptions#defaultSgdLearningRate}. With a fixed
 * length (--epochs or --iterations) they decay as the papers have them ({@link
 * StepSizeSchedule#PAPER}, SGD ×0.9 per epoch); under the stopping rule they are constant ({@link
 * StepSizeSchedule#UNDER_RULE}, SGD ×1) and the rule divides them on plateaus. The factorized model
 * keeps s for longer ({@link StepSizeSchedule#FACTORIZED_SMOOTHING}) and under the rule starts from
 * ρ₀ = 0.02.
 */
final class StepOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Option(
      names = "--step",
      paramLabel = "adaptive|sgd",
      description =
          "A&R's adaptive schedule (the A&R methods' default) or plain SGD: x0.9 per epoch with"
              + " --epochs or --iterations, else constant between the stopping rule's reductions.")
  Step step;

  @Option(
      names = "--learning-rate",
      paramLabel = "X",
      converter = OptionTypes.PositiveNumber.class,
      description =
          "The initial step size (default: the method's; the adaptive step's rho0 is 0.05 under the"
              + " stopping rule (0.02 with --rank), the paper's 0.02 with --epochs or"
              + " --iterations).")
  Double learningRate;

  enum Step {
    ADAPTIVE,
    SGD
  }

  /**
   * The schedule of {@code method} for the model ({@code factorized}: {@code --rank} was given) and
   * a run of {@code fixedLength} (--epochs or --iterations) or under the stopping rule.
   */
  StepSizeSchedule schedule(Method method, boolean factorized, boolean fixedLength) {
    boolean sgdOnly =
        method.isDoubleSum() || method == Method.NCE || method == Method.IMPORTANCE_SAMPLING;
    return switch (Objects.requireNonNullElse(step, sgdOnly ? Step.SGD : Step.ADAPTIVE)) {
      case ADAPTIVE -> {
        if (sgdOnly) {
          throw new ParameterException(
              command.commandLine(), method.label() + " runs plain SGD (--step sgd)");
        }
        StepSizeSchedule.Adaptive schedule = StepSizeSchedule.adaptive(factorized, fixedLength);
        yield schedule.withRho0(Objects.requireNonNullElse(learningRate, schedule.rho0()));
      }
      case SGD ->
          new StepSizeSchedule.Sgd(
              Objects.requireNonNullElse(
                  learningRate, TrainingOptions.defaultSgdLearningRate(method)),
              fixedLength ? 0.9 : 1);
    };
  }
}
