package org.largecat.kernel.scalar;

import org.largecat.special.LambertW;
import org.largecat.special.Logistic;

/**
 * One Implicit SGD step of the double-sum softmax for one datapoint and one sampled class, with no
 * regularizer (Fagan and Iyengar, "Unbiased scalable softmax optimization", App. F.1).
 *
 * <p>With z = x.(w_k - w_y), c = 2 eta N (K - 1) and the old u_old, the step minimizes Eq. 12, 2
 * eta N (u + e^-u + (K-1) e^(z-a-u)) + (u - u_old)^2 + a^2 / (2 ||x||^2), over u and a >= 0. For
 * fixed u the best a solves a e^a = c ||x||^2 e^(z-u) (Eq. 13), so a(u) = W0(e^(z - u + log(c
 * ||x||^2))) (Eq. 14). By the envelope theorem the derivative of the reduced objective (Eq. 15) in
 * u is the partial derivative at a = a(u), and with c e^(z-u-a) = a / ||x||^2 (Eq. 13) it is
 *
 * <pre>  g(u) = 2 eta N (1 - e^-u) - a(u) / ||x||^2 + 2 (u - u_old),</pre>
 *
 * whose root is the new u. Since a'(u) = -a / (1 + a),
 *
 * <pre>  g'(u) = 2 eta N e^-u + a / ((1 + a) ||x||^2) + 2 >= 2,
 *  g''(u) = -2 eta N e^-u - a / ((1 + a)^3 ||x||^2) < 0,</pre>
 *
 * so g is increasing and concave. Concavity makes every Newton point u - g(u)/g'(u) a lower bound
 * on the root (the tangent lies above g), and g' >= 2 makes u - g(u)/2 an upper bound where g(u) <
 * 0. The quotient a / ||x||^2 is taken as c e^(z-u-a) where a underflows (or ||x||^2 = 0, a = 0).
 *
 * <p>Bracket. Before any evaluation the root lies between the roots of g with the pull a/||x||^2
 * dropped (g is below that, the pull being >= 0) and with a = 0 in c e^(z-u-a) (g is above that);
 * both read 2 eta N (1 - B e^-u) + 2 (u - u_old) = 0, with B = 1 and B = 1 + (K-1) e^z, and one
 * Lambert W solves each. The first evaluation, at u_old, adds the paper's bracket (App. F.1, after
 * Eq. 16): [u_old, log(1 + (K-1) e^z)] if g(u_old) < 0, else [log(K-1) + z - 2 eta N ||x||^2,
 * u_old] and also 0 from below (g(u_old) > 0 needs u_old > 0, and then g(0) = -a(0)/||x||^2 - 2
 * u_old < 0). So the bracket always lies within the paper's. Every evaluation narrows it: by its
 * sign; by the Newton point, a lower bound for concave g; by the zero of the chord between the
 * latest points on either side of the root, an upper bound for concave g; and by u - g(u)/2 where
 * g(u) < 0.
 *
 * <p>Next point. After g(u_old) < 0 it is the upper end, often the a = 0 root and close when a is
 * small, which is where g is steep below the root and Newton from below would crawl. Otherwise it
 * is a probe past the Newton lower bound by twice Newton's predicted error (at least half the
 * tolerance), so that one evaluation also closes the bracket from above once Newton has converged;
 * or the lower end itself when it is a bound not yet evaluated. The safeguard: after an evaluation
 * (other than the first) that did not halve the bracket, the next is the midpoint. So at most two
 * evaluations pass per halving, and a bracket of width W needs at most 1 + 2 ceil(log2(W / 1e-13))
 * evaluations of g: twice the bisection count of Proposition 4 for eps = 1e-13, plus the one at
 * u_old (20,000 random problems over the whole supported range take 3.8 on average, 11 at most,
 * besides the two Lambert W of the closed-form bracket).
 *
 * <p>Stop. When the bracket is narrower than 1e-13 max(1, |lower end|), its lower end, a Newton
 * point and typically accurate to the rounding of g, is returned: |u - root| <= 1e-13 max(1,
 * |root|), an absolute floor of 1e-13 near u = 0, up to the rounding of g.
 */
public final class SingleClassImplicitStep {
  /** Relative width of the final bracket, absolute below |u| = 1. */
  static final double TOLERANCE = 1e-13;

  /**
   * Relative allowance for rounding in the closed-form bracket (about 10 times its rounding error).
   */
  private static final double BOUND_SLACK = 1e-14;

  private SingleClassImplicitStep() {}

  /**
   * The scalars shared by every problem of one call: 2 eta N, log(K - 1), c = 2 eta N (K - 1), log
   * c.
   */
  public record Coefficients(
      double twoEtaN, double logClassesMinusOne, double rate, double logRate) {
    /** For learning rate eta, N datapoints and K classes. */
    public static Coefficients of(double eta, long datasetSize, long classCount) {
      double twoEtaN = 2 * eta * datasetSize;
      double rate = twoEtaN * (classCount - 1);
      return new Coefficients(twoEtaN, Math.log(classCount - 1), rate, Math.log(rate));
    }
  }

  /** Counts evaluations of g, for tests of the bound above. */
  interface EvaluationCounter {
    EvaluationCounter NONE = () -> {};

    void evaluated();
  }

  /** The new u: the root of g. NaN if z or u_old is not finite. */
  public static double newU(Coefficients c, double z, double uOld, double xNorm2) {
    return newU(c, z, uOld, xNorm2, EvaluationCounter.NONE);
  }

  /** {@link #newU(Coefficients, double, double, double)}, reporting each evaluation of g. */
  static double newU(
      Coefficients c, double z, double uOld, double xNorm2, EvaluationCounter counter) {
    if (!Double.isFinite(z) || !Double.isFinite(uOld)) {
      return Double.NaN;
    }
    // The closed-form bracket: the roots without the pull and with a = 0 (B = 1 + (K-1) e^z).
    double lo = closedFormRoot(c, 0, uOld, -1);
    double hi = closedFormRoot(c, Logistic.softplus(c.logClassesMinusOne() + z), uOld, +1);
    double loError =
        Double.NaN; // predicted distance from lo up to the root when lo is a Newton point
    double below = Double.NaN; // the last point where g < 0 (finite), and g there
    double gBelow = Double.NaN;
    double above = Double.NaN; // the last point where g > 0, and g there
    double gAbove = Double.NaN;
    double u = uOld;
    for (boolean first = true; ; first = false) {
      counter.evaluated();
      double a = step(c, z, u, xNorm2);
      double pull = pull(c, z, u, xNorm2, a);
      double g = -c.twoEtaN() * Math.expm1(-u) - pull + 2 * (u - uOld);
      if (g == 0) {
        return u;
      }
      double slope = c.twoEtaN() * Math.exp(-u) + pull / (1 + a) + 2;
      double curvature = c.twoEtaN() * Math.exp(-u) + pull / ((1 + a) * (1 + a)); // |g''|
      if (first) { // the paper's bracket for this sign of g(u_old)
        if (g < 0) {
          hi = Math.min(hi, Logistic.softplus(c.logClassesMinusOne() + z)); // log(1 + (K-1) e^z)
        } else {
          // g(u_old) > 0 needs u_old > 0, and then g(0) = -a(0)/||x||^2 - 2 u_old < 0: the root is
          // > 0.
          lo = Math.max(lo, Math.max(0, c.logClassesMinusOne() + z - c.twoEtaN() * xNorm2));
        }
      }
      double widthBefore = hi - lo;
      if (g < 0) {
        if (u > lo) {
          lo = u;
          loError = Double.NaN;
        }
        hi = Math.min(hi, u - g / 2); // g' >= 2
        if (g > Double.NEGATIVE_INFINITY) {
          below = u;
          gBelow = g;
        }
      } else {
        hi = Math.min(hi, u);
        above = u;
        gAbove = g;
      }
      // Concave g: the chord between a point below the root and one above lies under g, so its zero
      // is an upper bound (NaN, and ignored, until both points exist).
      double secant = below - gBelow * ((above - below) / (gAbove - gBelow));
      if (secant < hi) {
        hi = Math.max(secant, lo);
      }
      double newtonStep = -g / slope; // NaN once g and g' overflow together; then no Newton bound
      if (u + newtonStep > lo) { // concave g: the Newton point is a lower bound on the root
        lo = Math.min(u + newtonStep, hi);
        // Newton's remaining error is about |g''| step^2 / (2 g'); twice that, for a probe past the
        // root.
        loError = curvature * newtonStep * newtonStep / slope;
      }
      double width = hi - lo;
      double tolerance = TOLERANCE * Math.max(1, lo > 0 ? lo : hi < 0 ? -hi : 0);
      if (width <= tolerance) {
        return lo;
      }
      double midpoint = lo + width / 2;
      if (!first && width > widthBefore / 2) {
        u = midpoint; // the safeguard: no two evaluations in a row without halving the bracket
      } else if (first && g < 0) {
        u = hi;
      } else if (!Double.isNaN(loError)) {
        u = Math.min(lo + Math.max(loError, tolerance / 2), midpoint);
      } else { // lo is a bound not yet evaluated (or u itself): Newton from below starts there
        u = lo == u ? midpoint : lo;
      }
    }
  }

  /**
   * The step a(u) = W0(2 eta N (K-1) ||x||^2 e^(z-u)), from the Wright omega function of the
   * exponent. The exponent is summed as a double-double and its low part applied to first order,
   * d/dt W0(e^t) = a / (1 + a), so a keeps its few-ulp accuracy even when |z - u| is large.
   */
  public static double step(Coefficients c, double z, double u, double xNorm2) {
    double d = z - u;
    if (Double.isNaN(d) || xNorm2 == 0) {
      return Double.isNaN(d) ? Double.NaN : 0;
    }
    double dError = twoSumError(z, -u, d);
    double logScale = c.logRate() + Math.log(xNorm2);
    double t = d + logScale;
    double tError = twoSumError(d, logScale, t) + dError;
    double a = LambertW.w0OfExp(t);
    return a + tError * (a / (1 + a));
  }

  /**
   * The root of 2 eta N (1 - B e^-u) + 2 (u - u_old) = 0, moved outwards (direction +1 or -1) by
   * more than its rounding error so that it stays a bound. With v = eta N B e^-u the equation reads
   * v e^v = eta N B e^(eta N - u_old), so v = W0(e^t) with t = log(eta N B) + eta N - u_old, and u
   * = log(eta N B / v), or u = u_old - eta N + v where v is small (and may underflow). Neither form
   * cancels beyond the inputs' own scale: t's rounding reaches u divided by 1 + v.
   */
  private static double closedFormRoot(Coefficients c, double logB, double uOld, int direction) {
    double etaN = c.twoEtaN() / 2;
    double logEtaNB = Math.log(etaN) + logB;
    double t = logEtaNB + etaN - uOld;
    double v = LambertW.w0OfExp(t);
    double root = v < 1 ? (uOld - etaN) + v : logEtaNB - Math.log(v);
    double rounding =
        Math.abs(root) + Math.abs(logEtaNB) + 1 + (Math.abs(t) + etaN + Math.abs(uOld)) / (1 + v);
    return root + direction * BOUND_SLACK * rounding;
  }

  /**
   * a / ||x||^2, which Eq. 13 equals to c e^(z-u-a); the latter form is used where a is subnormal
   * (so e^-a = 1) or ||x||^2 = 0, with e^(z-u) from the double-double z - u.
   */
  private static double pull(Coefficients c, double z, double u, double xNorm2, double a) {
    if (a >= Double.MIN_NORMAL) {
      return a / xNorm2;
    }
    double d = z - u;
    return c.rate() * (Math.exp(d) * (1 + twoSumError(z, -u, d)));
  }

  /** The rounding error of s = x + y, exactly (Knuth's TwoSum): x + y = s + error. */
  private static double twoSumError(double x, double y, double s) {
    double yPart = s - x;
    return (x - (s - yPart)) + (y - yPart);
  }
}
