package org.largecat.oracle;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Error of a computed double against an exact true value, measured without rounding the truth
 * first.
 */
public final class OracleError {
  private OracleError() {}

  /**
   * Relative error |got - truth| / |truth|; 0 when got is the special value (NaN, +-Inf) the truth
   * is or rounds to, +Inf when only one of them is special, or when truth is 0 and got is not.
   */
  public static double relative(double got, OracleTable.Truth truth) {
    if (truth.value() == null || !Double.isFinite(got)) {
      return sameSpecial(got, truth) ? 0 : Double.POSITIVE_INFINITY;
    }
    BigDecimal t = truth.value();
    BigDecimal diff = new BigDecimal(got).subtract(t).abs();
    if (t.signum() == 0) {
      return diff.signum() == 0 ? 0 : Double.POSITIVE_INFINITY;
    }
    return diff.divide(t.abs(), MathContext.DECIMAL64).doubleValue();
  }

  /**
   * Error in units in the last place of the double nearest the truth (for results in the subnormal
   * range that unit is {@link Double#MIN_VALUE}).
   */
  public static double ulps(double got, OracleTable.Truth truth) {
    if (truth.value() == null || !Double.isFinite(got)) {
      return sameSpecial(got, truth) ? 0 : Double.POSITIVE_INFINITY;
    }
    double nearest = truth.rounded();
    if (Double.isInfinite(nearest)) {
      return Double.POSITIVE_INFINITY; // the truth overflows but got is finite
    }
    BigDecimal diff = new BigDecimal(got).subtract(truth.value()).abs();
    return diff.divide(new BigDecimal(Math.ulp(nearest)), MathContext.DECIMAL64).doubleValue();
  }

  private static boolean sameSpecial(double got, OracleTable.Truth truth) {
    double s = truth.rounded();
    return Double.compare(got, s) == 0 || (Double.isNaN(got) && Double.isNaN(s));
  }
}
