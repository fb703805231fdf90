package org.largecat.special;

/** Placeholder while the reference is written. */
public final class Gumbel {
  private Gumbel() {}
  public static double logCdf(double x) { throw new IllegalStateException("placeholder"); }
  public static double logPdf(double x) { throw new IllegalStateException("placeholder"); }
}
