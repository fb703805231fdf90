package org.largecat.special;

/**
 * The principal branch W0 of the Lambert W function (the root w >= -1 of w e^w = x) and the Wright
 * omega function W0(e^x) on the reals, to a few ulps over their whole double domains.
 *
 * <p>Both refine an initial guess with the fourth-order iteration of Fritsch, Shafer and Crowley
 * (Algorithm 443, Comm. ACM 16(2), 1973): with z = log(x / w) - w,
 *
 * <pre>  q = 2 (1 + w) (1 + w + 2z/3),   w' = w (1 + z/(1 + w) (q - z)/(q - 2z)).</pre>
 *
 * Only the way z is formed differs between the regimes, each chosen so that the rounding error of z
 * stays O(eps) relative to what the step divides it by:
 *
 * <ul>
 *   <li>ordinary x: z = log(x / w) - w;
 *   <li>x near the branch point -1/e, in terms of d = e x + 1 (computed with a double-double e) and
 *       eps = 1 + w, since x / w = (1 - d) / (e (1 - eps)): z = log1p(-d) - (log1p(-eps) + eps);
 *   <li>W0(e^x) for x >= 1, never forming e^x: z = x - log(w) - w.
 * </ul>
 *
 * Two steps from the guesses below reach double precision everywhere: the guesses are within 8%,
 * one step brings that below 1.4e-5 and the second below 1e-19 (each step raises the relative error
 * to about its fourth power).
 *
 * <p>Accuracy against a 60-digit oracle (see {@code LambertWOracleTest}): w0 within 4 ulp on all of
 * [-1/e, max double], the branch point included, because the distance to it is carried exactly
 * enough (measured: 2.0 ulp at worst, 1.4 within 1e-3 of -1/e); w0OfExp within 4 ulp for every
 * double x (measured: 1.6 ulp).
 */
public final class LambertW {
  private LambertW() {}

  /**
   * The double nearest -1/e, which lies 1.2e-17 below -1/e. It stands for the branch point, so w0
   * maps it to -1; every double below it is outside the domain.
   */
  public static final double BRANCH_POINT = -0.36787944117144233;

  // e as a double-double: E_HI + E_LO equals e to about 1e-32.
  private static final double E_HI = 2.718281828459045;
  private static final double E_LO = 1.4456468917292502e-16;

  /** Below this |x|, W0(x) = x - x^2 + 3/2 x^3 to within 3e-24 relative. */
  private static final double SERIES_LIMIT = 0x1p-26;

  /**
   * Below this x, -e^(-1/2)/2 where W0 = -1/2, the iteration runs in the branch-point variables d
   * and eps = 1 + w; there eps <= 1/2, so w = eps - 1 loses nothing to eps's rounding.
   */
  private static final double NEAR_BRANCH = -0.30326532985631671;

  /** From this x on, W0(e^x) >= 1 and the iteration runs on x itself rather than on e^x. */
  private static final double OMEGA_LOG_SPACE = 1;

  /**
   * W0(x), the principal branch of Lambert W: the root w >= -1 of w e^w = x. W0(±0) = ±0, NaN for x
   * below {@link #BRANCH_POINT} (which gives -1) and for NaN; +Inf for +Inf.
   */
  public static double w0(double x) {
    if (Math.abs(x) < SERIES_LIMIT) {
      return x - x * x * (1 - 1.5 * x); // Taylor series at 0; exact for ±0 and subnormals
    }
    if (x < NEAR_BRANCH) {
      return nearBranchPoint(x);
    }
    if (!(x < Double.POSITIVE_INFINITY)) {
      return x; // NaN or +Inf
    }
    double w = winitzki(Math.log1p(x));
    for (int step = 0; step < 2; step++) {
      w += fscCorrection(w, 1 + w, Math.log(x / w) - w);
    }
    return w;
  }

  /**
   * W0(e^x), the Wright omega function on the reals: the root of w + log w = x. It never forms e^x,
   * so it holds for all x up to +Inf; it is e^x to within rounding for x below about -37 and
   * underflows to 0 with it. NaN for NaN.
   */
  public static double w0OfExp(double x) {
    if (!(x >= OMEGA_LOG_SPACE)) {
      return w0(Math.exp(x)); // e^x is representable here; its 1 ulp error shrinks by 1/(1 + w)
    }
    if (x == Double.POSITIVE_INFINITY) {
      return x;
    }
    double w = winitzki(x + Math.log1p(Math.exp(-x))); // log(1 + e^x) without overflow
    for (int step = 0; step < 2; step++) {
      w += fscCorrection(w, 1 + w, x - Math.log(w) - w);
    }
    return w;
  }

  /**
   * W0(x) for x in [-1/e, NEAR_BRANCH) (or the NaN / branch-point answer below it), iterating on 1
   * + w.
   */
  private static double nearBranchPoint(double x) {
    if (!(x >= BRANCH_POINT)) {
      return Double.NaN; // below the branch point, -Inf or NaN
    }
    // d = e x + 1 from the double-double e: the product's rounding errors are ~1e-33, far below d.
    double d = Math.fma(E_HI, x, 1) + E_LO * x;
    if (d <= 0) {
      return -1; // x is BRANCH_POINT itself, 1.2e-17 below the true -1/e
    }
    double p = Math.sqrt(2 * d);
    // Series of W0 at the branch point in p = sqrt(2 (e x + 1)) (Corless et al., Adv. Comput.
    // Math. 5, 1996, Eq. 4.22): W0 = -1 + p - p^2/3 + 11/72 p^3 - 43/540 p^4 + ...
    double eps = p * (1 + p * (-1.0 / 3 + p * (11.0 / 72 - p * (43.0 / 540))));
    double log1pMinusD = Math.log1p(-d);
    for (int step = 0; step < 2; step++) {
      double z = log1pMinusD - (Math.log1p(-eps) + eps);
      eps += fscCorrection(eps - 1, eps, z);
    }
    return eps - 1;
  }

  /**
   * Winitzki's uniform approximation W0(x) ~ L (1 - log(1 + L) / (2 + L)) with L = log(1 + x) (S.
   * Winitzki, "Uniform approximations for transcendental functions", ICCSA 2003), within 8% for x
   * >= NEAR_BRANCH; the argument is L.
   */
  private static double winitzki(double logOnePlusX) {
    return logOnePlusX * (1 - Math.log1p(logOnePlusX) / (2 + logOnePlusX));
  }

  /**
   * The Fritsch-Shafer-Crowley change w' - w for the current w, with 1 + w passed separately so
   * that it keeps its relative precision near the branch point, and z = log(x / w) - w.
   */
  private static double fscCorrection(double w, double onePlusW, double z) {
    // (q - z)/(q - 2z) with q/(2(1 + w)) = r factored out, so nothing overflows for w up to max
    // double.
    double zOverOnePlusW = z / onePlusW;
    double r = onePlusW + 2 * z / 3;
    return w * zOverOnePlusW * ((r - zOverOnePlusW / 2) / (r - zOverOnePlusW));
  }
}
