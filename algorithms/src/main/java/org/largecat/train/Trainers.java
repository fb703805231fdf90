package org.largecat.train;

import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.doublesum.DoubleSumOptions;
import org.largecat.train.doublesum.DoubleSumTrainers;
import org.largecat.train.sampled.SampledTrainer;

/**
 * The step-wise trainer of a {@link Method} for the linear model, and the model it starts from.
 * {@code org.largecat.fit.Fitter} is the way to train; this is the level below it, for a caller
 * that runs the iterations itself (the papers' experiments).
 */
public final class Trainers {
  private Trainers() {}

  /** All zeros for the double-sum methods (their Algorithm 1), else the A&R random start. */
  public static LinearModel initialModel(Dataset train, TrainingOptions options) {
    return initialModel(train.classes(), train.columns(), options);
  }

  /** {@link #initialModel(Dataset, TrainingOptions)} of K {@code classes} and D {@code columns}. */
  public static LinearModel initialModel(int classes, int columns, TrainingOptions options) {
    LinearModel model = LinearModel.zeros(options.method().link(), classes, columns);
    if (!options.method().isDoubleSum()) {
      SampledTrainer.initialise(model, options);
    }
    return model;
  }

  /**
   * A trainer that fits {@code model} in place on {@code data} as {@code options} say; the
   * double-sum methods take {@link DoubleSumOptions#from} them.
   */
  public static Trainer create(
      Dataset data, LinearModel model, TrainingOptions options, Kernels kernels) {
    Method method = options.method();
    if (method.isFullBatch()) {
      throw new IllegalArgumentException(
          method.label()
              + " has no step-wise trainer: it is the full-batch solver of"
              + " org.largecat.train.fullbatch");
    }
    return method.isDoubleSum()
        ? DoubleSumTrainers.create(data, model, DoubleSumOptions.from(options), kernels)
        : new SampledTrainer(data, model, options, kernels);
  }
}
