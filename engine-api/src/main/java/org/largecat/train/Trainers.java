package org.largecat.train;

import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;

/** Makes the trainer of a {@link Method}. */
public final class Trainers {
  private Trainers() {}

  /** A trainer that fits {@code model} in place on {@code data} as {@code options} say. */
  public static Trainer create(Dataset data, LinearModel model, TrainingOptions options, Kernels kernels) {
    return switch (options.method()) {
      case AR_SOFTMAX, AR_PROBIT, AR_LOGISTIC, OVE, EXACT_SOFTMAX -> new SampledTrainer(data, model, options, kernels);
    };
  }
}
