package org.largecat.train;

import org.largecat.fit.Trainers;
import org.largecat.train.fullbatch.FullBatchSoftmax;

/**
 * What a trainer is to do: the settings of one family of trainers, each a record of exactly the
 * fields its trainers read, built from the method's paper defaults by its {@code builder}. {@link
 * SampledSpec} for the sampled-bound methods ({@code train.sampled}), {@link DoubleSumSpec} for the
 * double-sum methods ({@code train.doublesum}), {@link FullBatchSpec} for {@link FullBatchSoftmax}.
 * {@link Trainers#create} dispatches on the kind.
 */
public sealed interface TrainerSpec permits SampledSpec, DoubleSumSpec, FullBatchSpec {

  /** The method trained. */
  Method method();

  /** Worker threads (≥ 1). */
  int threads();

  /**
   * The initial learning rate of the plain SGD schedule (×0.9 per epoch) when none is given: for
   * the methods compared in unbiased-scalable-softmax, the median over its seven datasets of the
   * tuned rates of its Table 2 (ove 10, nce 10³, is 10², sgd 10⁻³, umax and umax-raman 10⁻², isgd
   * and isgd-batch 0.1); 0.01 for the A&R bounds. {@code largecat tune} finds the value for the
   * problem at hand.
   */
  static double defaultSgdLearningRate(Method method) {
    return switch (method) {
      case OVE -> 10;
      case NCE -> 1e3;
      case IMPORTANCE_SAMPLING -> 1e2;
      case DOUBLE_SUM_SGD -> 1e-3;
      case UMAX, UMAX_RAMAN -> 1e-2;
      case IMPLICIT_SGD, IMPLICIT_SGD_BATCH -> 0.1;
      default -> 0.01;
    };
  }
}
