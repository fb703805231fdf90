package org.largecat.train.doublesum;

import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Trainer;

/**
 * Makes the double-sum trainer of a method: one pair per iteration, or fixed mini-batches for
 * isgd-batch.
 */
public final class DoubleSumTrainers {
  private DoubleSumTrainers() {}

  /**
   * A trainer that fits {@code model} (a softmax model, usually all zeros as in Algorithm 1) in
   * place on {@code data}.
   */
  public static Trainer create(
      Dataset data, LinearModel model, DoubleSumSpec options, Kernels kernels) {
    if (model.link() != options.method().link()) {
      throw new IllegalArgumentException(
          options.method().label()
              + " fits a "
              + options.method().link()
              + " model, not "
              + model.link());
    }
    return switch (options.method()) {
      case IMPLICIT_SGD_BATCH -> new MiniBatchImplicitTrainer(data, model, options, kernels);
      default -> new PairTrainer(data, model, options, kernels);
    };
  }
}
