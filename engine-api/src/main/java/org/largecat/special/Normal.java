package org.largecat.special;

/** Placeholder while the reference is written. */
public final class Normal {
  private Normal() {}
  public static double logCdf(double x) { throw new IllegalStateException("placeholder"); }
  public static double millsRatio(double x) { throw new IllegalStateException("placeholder"); }
}
