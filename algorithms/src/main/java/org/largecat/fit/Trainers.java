package org.largecat.fit;

import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.FullBatchSpec;
import org.largecat.train.SampledSpec;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerSpec;
import org.largecat.train.doublesum.DoubleSumTrainers;
import org.largecat.train.sampled.SampledTrainer;

/**
 * The step-wise trainer of a {@link TrainerSpec} for the linear model, and the model it starts
 * from. {@code org.largecat.fit.Fitter} is the way to train; this is the level below it, for a
 * caller that runs the iterations itself (the papers' experiments).
 */
public final class Trainers {
  private Trainers() {}

  /** A&R's random start for the sampled-bound methods, else all zeros (Algorithm 1; L-BFGS). */
  public static LinearModel initialModel(Dataset train, TrainerSpec spec) {
    return initialModel(train.classes(), train.columns(), spec);
  }

  /** {@link #initialModel(Dataset, TrainerSpec)} of K {@code classes} and D {@code columns}. */
  public static LinearModel initialModel(int classes, int columns, TrainerSpec spec) {
    LinearModel model = LinearModel.zeros(spec.method().link(), classes, columns);
    if (spec instanceof SampledSpec sampled) {
      SampledTrainer.initialise(model, sampled);
    }
    return model;
  }

  /** A trainer that fits {@code model} in place on {@code data} as {@code spec} says. */
  public static Trainer create(Dataset data, LinearModel model, TrainerSpec spec, Kernels kernels) {
    return switch (spec) {
      case SampledSpec sampled -> new SampledTrainer(data, model, sampled, kernels);
      case DoubleSumSpec doubleSum -> DoubleSumTrainers.create(data, model, doubleSum, kernels);
      case FullBatchSpec fullBatch ->
          throw new IllegalArgumentException(
              fullBatch.method().label()
                  + " has no step-wise trainer: it is the full-batch solver of"
                  + " org.largecat.train.fullbatch");
    };
  }
}
