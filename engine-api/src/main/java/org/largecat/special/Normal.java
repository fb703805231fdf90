package org.largecat.special;

/**
 * The standard normal log-cdf and inverse Mills ratio, accurate in both tails, for the probit
 * models (categorical-from-binary, App. D.1.2).
 *
 * <p>Everything is built on the upper-tail ratio R(t) = Q(t)/phi(t), Q = 1 - Phi, t >= 0, through
 * Laplace's continued fraction R(t) = 1/(t + A1(t)), A1(t) = 1/(t + A2(t)), A2(t) = 2/(t + 3/(t +
 * ...)). A2 comes from the fitted polynomials of {@link NormalTailFit}; A1 and R follow by adding
 * positive terms and dividing, so no step cancels. For t far in the tail 1/R(t) = t + A1(t) is the
 * inverse Mills ratio itself, without overflow, and e^{-x^2/2} is computed from x^2/2 split exactly
 * into two doubles, so the rounding of x^2 does not cost relative accuracy.
 */
public final class Normal {
  private Normal() {}

  /** log(2 pi)/2. */
  static final double HALF_LOG_2PI = 0.9189385332046728;

  /** 1/sqrt(2 pi). */
  private static final double INV_SQRT_2PI = 0.3989422804014327;

  /** Above this x, phi(x) and Q(x) are below half the smallest double (phi(39) is about 1e-331). */
  static final double UPPER_UNDERFLOW = 39;

  /**
   * log Phi(x). Relative error at most 1e-14 for x in [-1e10, 40]; where the result is subnormal (x
   * above about 37.5) the error is at most 2 units of {@link Double#MIN_VALUE}. Below -1e10 it
   * stays as accurate, about -x^2/2 - log(-x) - log(2 pi)/2, until that overflows to -Infinity
   * below about -1.9e154; above 40 it is -0.0. NaN gives NaN.
   */
  public static double logCdf(double x) {
    if (x < 0) {
      // log Phi(x) = log Q(t) = log R(t) - t^2/2 - log(2 pi)/2 with t = -x, every term negative.
      double t = -x;
      double hi = t * (0.5 * t);
      if (hi == Double.POSITIVE_INFINITY) {
        return Double.NEGATIVE_INFINITY;
      }
      double lo = Math.fma(t, 0.5 * t, -hi);
      return -hi - (lo + HALF_LOG_2PI + Math.log(t + tail1(t)));
    }
    if (x > UPPER_UNDERFLOW) {
      return -0.0;
    }
    return Math.log1p(-upperTail(x));
  }

  /**
   * The inverse Mills ratio phi(x)/Phi(x). Relative error at most 1e-13 for every finite x where
   * the result is a normal double, down to x = -Double.MAX_VALUE (where it is about -x); above
   * about 37.5 the result is subnormal with error at most 2 units of {@link Double#MIN_VALUE}, and
   * above about 38.6 it is 0. -Infinity gives +Infinity, +Infinity gives 0, NaN gives NaN.
   */
  public static double millsRatio(double x) {
    if (x < 0) {
      // phi(x)/Phi(x) = 1/R(t) = t + A1(t) with t = -x.
      double t = -x;
      return t + tail1(t);
    }
    if (x > UPPER_UNDERFLOW) {
      return 0;
    }
    double phi = expMinusHalfSquare(x) * INV_SQRT_2PI;
    return phi / (1 - ratio(x) * phi);
  }

  /** Q(x) = 1 - Phi(x) = R(x) phi(x) for 0 <= x <= UPPER_UNDERFLOW. */
  private static double upperTail(double x) {
    return expMinusHalfSquare(x) * (ratio(x) * INV_SQRT_2PI);
  }

  /**
   * e^{-x^2/2} for |x| <= UPPER_UNDERFLOW, with x^2/2 = hi + lo exactly, e^{-lo} = 1 - lo to double
   * precision.
   */
  private static double expMinusHalfSquare(double x) {
    double hi = x * (0.5 * x);
    double lo = Math.fma(x, 0.5 * x, -hi);
    return Math.exp(-hi) * (1 - lo);
  }

  /** R(t) = Q(t)/phi(t) = 1/(t + A1(t)), t >= 0. */
  static double ratio(double t) {
    return 1 / (t + tail1(t));
  }

  /**
   * A1(t) = 1/R(t) - t = 1/(t + A2(t)), t >= 0; it is also the mean of N(-t, 1) truncated to [0,
   * inf).
   */
  static double tail1(double t) {
    return 1 / (t + tail2(t));
  }

  /**
   * A2(t) = 2/(t + 3/(t + 4/(t + ...))), t >= 0 (or +Infinity, giving 0), from the fitted pieces.
   */
  static double tail2(double t) {
    if (t < NormalTailFit.SPLIT) {
      int piece = (int) t;
      return polynomial(piece, t - piece - 0.5);
    }
    double s = NormalTailFit.SPLIT / t;
    return polynomial((int) NormalTailFit.SPLIT, s * s - 0.5) / t;
  }

  /** Horner evaluation of one piece of {@link NormalTailFit}. */
  private static double polynomial(int piece, double u) {
    double[] c = NormalTailFit.COEFFICIENTS;
    int base = piece * (NormalTailFit.DEGREE + 1);
    double p = c[base + NormalTailFit.DEGREE];
    for (int j = NormalTailFit.DEGREE - 1; j >= 0; j--) {
      p = Math.fma(p, u, c[base + j]);
    }
    return p;
  }
}
