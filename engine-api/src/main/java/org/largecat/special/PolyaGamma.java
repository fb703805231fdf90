package org.largecat.special;

/** Placeholder while the reference is written. */
public final class PolyaGamma {
  private PolyaGamma() {}
  public static double mean(double x) { throw new IllegalStateException("placeholder"); }
}
