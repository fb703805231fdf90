package org.largecat.train.sampled;

import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Trainer;

/** Makes the trainer of a {@link FactorizedModel} for a method. */
public final class FactorizedTrainers {
  private FactorizedTrainers() {}

  /**
   * exact-softmax-sgd's gradient by gemms over all K classes ({@link FactorizedSoftmaxTrainer}),
   * else the sampled bound's per-example or shared-sample step ({@link FactorizedTrainer}).
   */
  public static Trainer create(
      Dataset data, FactorizedModel model, SampledSpec options, Kernels kernels) {
    return options.method() == Method.EXACT_SOFTMAX_SGD
        ? new FactorizedSoftmaxTrainer(data, model, options, kernels)
        : new FactorizedTrainer(data, model, options, kernels);
  }
}
