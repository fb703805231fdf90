package org.largecat.special;

/** Placeholder while the reference is written. */
public final class TruncatedNormal {
  private TruncatedNormal() {}
  public static double mean(double mu, TruncationSide side) { throw new IllegalStateException("placeholder"); }
  public static double variance(double mu, TruncationSide side) { throw new IllegalStateException("placeholder"); }
  public static double entropy(double mu, TruncationSide side) { throw new IllegalStateException("placeholder"); }
}
