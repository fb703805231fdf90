package org.largecat.special;

/** Placeholder while the reference is written. */
public final class Logistic {
  private Logistic() {}
  public static double logSigmoid(double x) { throw new IllegalStateException("placeholder"); }
  public static double softplus(double x) { throw new IllegalStateException("placeholder"); }
  public static double logPdf(double x) { throw new IllegalStateException("placeholder"); }
}
