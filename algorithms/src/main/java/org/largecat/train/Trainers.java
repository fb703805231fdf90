package org.largecat.train;

import java.util.ServiceLoader;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;

/** Makes the trainer of a {@link Method}, through the {@link TrainerProvider} that trains it. */
public final class Trainers {
  private Trainers() {}

  /**
   * The starting model: all zeros for the double-sum methods (Algorithm 1), else the A&R random
   * start.
   */
  public static LinearModel initialModel(Dataset train, TrainingOptions options) {
    return provider(options.method()).initialModel(train, options);
  }

  /** A trainer that fits {@code model} in place on {@code data} as {@code options} say. */
  public static Trainer create(
      Dataset data, LinearModel model, TrainingOptions options, Kernels kernels) {
    return provider(options.method()).create(data, model, options, kernels);
  }

  private static TrainerProvider provider(Method method) {
    if (method.isFullBatch()) {
      throw new IllegalArgumentException(
          method.label()
              + " has no step-wise trainer: it is the full-batch solver FullBatchSoftmax of"
              + " org.largecat.train.fullbatch");
    }
    for (TrainerProvider provider :
        ServiceLoader.load(TrainerProvider.class, Trainers.class.getClassLoader())) {
      if (provider.trains(method)) {
        return provider;
      }
    }
    throw new IllegalStateException(
        "no trainer provider for "
            + method.label()
            + " on the class path: META-INF/services/"
            + TrainerProvider.class.getName()
            + " of the algorithms jar is missing");
  }
}
