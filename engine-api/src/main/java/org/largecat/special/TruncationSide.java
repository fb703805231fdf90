package org.largecat.special;

/** Which half-line a normal distribution is truncated to. */
public enum TruncationSide {
  /** [0, inf). */
  POSITIVE,
  /** (-inf, 0). */
  NEGATIVE;

  /** The side for a sign: +1 for POSITIVE, -1 for NEGATIVE. */
  public static TruncationSide ofSign(int sign) {
    return switch (sign) {
      case 1 -> POSITIVE;
      case -1 -> NEGATIVE;
      default -> throw new IllegalArgumentException("truncation side must be 1 or -1, got " + sign);
    };
  }
}
