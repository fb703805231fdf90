package org.largecat.eval;

/**
 * A class score came out NaN or beyond float range (where scores are kept), so no probability, rank
 * or accuracy of that example means anything: evaluation and prediction stop rather than score it
 * (a NaN compares false with everything, which would rank the label first).
 */
public final class NonFiniteScoreException extends ArithmeticException {
  private static final long serialVersionUID = 1L;

  NonFiniteScoreException(String message) {
    super(message);
  }
}
