package org.largecat.kernel;

/**
 * In check mode, a backend's result differs from the scalar reference's beyond the stated bound.
 */
public final class KernelDisagreementException extends ArithmeticException {
  private static final long serialVersionUID = 1L;

  public KernelDisagreementException(String message) {
    super(message);
  }
}
