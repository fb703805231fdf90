package org.largecat.special;

/** Placeholder while the reference is written. */
public final class LambertW {
  private LambertW() {}
  public static double w0(double x) { throw new IllegalStateException("placeholder"); }
  public static double w0OfExp(double x) { throw new IllegalStateException("placeholder"); }
}
