package org.largecat.kernel;

/** A Cholesky factorisation met a leading minor that is not positive. */
public final class NotPositiveDefiniteException extends ArithmeticException {
  private static final long serialVersionUID = 1L;
  private final int order;

  public NotPositiveDefiniteException(int order) {
    super(
        "matrix is not positive definite: its leading minor of order "
            + order
            + " is not positive");
    this.order = order;
  }

  /** The 1-based order of the first leading minor that is not positive. */
  public int order() {
    return order;
  }
}
