package org.largecat.train;

/**
 * A trainer's iterate overflowed (vanilla SGD on the double-sum at too large a learning rate,
 * unbiased-scalable-softmax §2.2): the message names the iteration, the learning rate and what
 * overflowed. The model keeps its last finite weights.
 */
public final class TrainingDivergedException extends ArithmeticException {
  private static final long serialVersionUID = 1L;

  public TrainingDivergedException(String message) {
    super(message);
  }
}
