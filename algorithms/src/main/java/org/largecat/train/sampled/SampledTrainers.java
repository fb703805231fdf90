package org.largecat.train.sampled;

import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.Method;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerProvider;
import org.largecat.train.TrainingOptions;

/** Makes the {@link SampledTrainer} of every method that is neither double-sum nor full-batch. */
public final class SampledTrainers implements TrainerProvider {
  @Override
  public boolean trains(Method method) {
    return !method.isDoubleSum() && !method.isFullBatch();
  }

  /** The A&R random start ({@link SampledTrainer#initialise}). */
  @Override
  public LinearModel initialModel(Dataset train, TrainingOptions options) {
    LinearModel model =
        LinearModel.zeros(options.method().link(), train.classes(), train.columns());
    SampledTrainer.initialise(model, options);
    return model;
  }

  @Override
  public Trainer create(Dataset data, LinearModel model, TrainingOptions options, Kernels kernels) {
    return new SampledTrainer(data, model, options, kernels);
  }
}
