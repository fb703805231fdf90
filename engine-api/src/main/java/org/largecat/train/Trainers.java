package org.largecat.train;

import org.largecat.data.Dataset;
import org.largecat.doublesum.DoubleSumOptions;
import org.largecat.doublesum.DoubleSumTrainers;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;

/** Makes the trainer of a {@link Method}. */
public final class Trainers {
  private Trainers() {}

  /** The starting model: all zeros for the double-sum methods (Algorithm 1), else the A&R random start. */
  public static LinearModel initialModel(Dataset train, TrainingOptions options) {
    Method method = options.method();
    LinearModel model = LinearModel.zeros(method.link(), train.classes(), train.columns());
    if (!method.isDoubleSum()) {
      SampledTrainer.initialise(model, options);
    }
    return model;
  }

  /**
   * A trainer that fits {@code model} in place on {@code data} as {@code options} say; the
   * double-sum methods take their other settings from {@link DoubleSumOptions#from}.
   */
  public static Trainer create(Dataset data, LinearModel model, TrainingOptions options, Kernels kernels) {
    return switch (options.method()) {
      case AR_SOFTMAX, AR_PROBIT, AR_LOGISTIC, OVE, EXACT_SOFTMAX, NCE, IMPORTANCE_SAMPLING ->
          new SampledTrainer(data, model, options, kernels);
      case DOUBLE_SUM_SGD, UMAX, IMPLICIT_SGD, IMPLICIT_SGD_BATCH, UMAX_RAMAN ->
          DoubleSumTrainers.create(data, model, DoubleSumOptions.from(options), kernels);
    };
  }
}
