package org.largecat.kernel.simd;

import static jdk.incubator.vector.VectorOperators.ABS;
import static jdk.incubator.vector.VectorOperators.EXP;
import static jdk.incubator.vector.VectorOperators.GE;
import static jdk.incubator.vector.VectorOperators.LE;
import static jdk.incubator.vector.VectorOperators.LOG1P;
import static jdk.incubator.vector.VectorOperators.LT;
import static jdk.incubator.vector.VectorOperators.SQRT;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.special.LambertW;

/**
 * W0 and the Wright omega function W0(e^x) of {@link LambertW}, lane by lane: the same initial
 * guesses (Winitzki's, and the branch-point series) refined by the same two Fritsch-Shafer-Crowley
 * steps (Algorithm 443, Comm. ACM 16(2), 1973), with the reference's regimes computed for every
 * lane and blended by mask.
 *
 * <p>The two functions share one shape. Each lane is in one of three regimes: near the branch point
 * (W0 of x below -e^(-1/2)/2), iterating on eps = 1 + w with z = log1p(-d) - (log1p(-eps) + eps), d
 * = e x + 1; in log space (W0(e^x) for x >= 1), z = x - log w - w; or ordinary, W0 of y (y = x for
 * W0, y = e^x for W0(e^x) below 1), z = log(y / w) - w. Every logarithm goes through one vector
 * log1p per use, its argument blended by regime: log w as log1p(w - 1) and log(y / w) as log1p(y /
 * w - 1), where w and y / w = e^w lie in (0.6, 2^53) and the subtraction is exact (Sterbenz below
 * 2; above, 1 is a multiple of the ulp). The one exp gives e^x, or e^-x for log1p(e^-x) in log
 * space, where log(1 + e^x) = x + log1p(e^-x).
 */
final class VectorLambertW {
  private static final VectorSpecies<Double> D = SimdWidth.DOUBLES;
  // e as a double-double, as in LambertW.
  private static final double E_HI = 2.718281828459045;
  private static final double E_LO = 1.4456468917292502e-16;

  /** LambertW.SERIES_LIMIT: below this |x|, W0(x) = x - x^2 + 3/2 x^3 to double precision. */
  private static final double SERIES_LIMIT = 0x1p-26;

  /** LambertW.NEAR_BRANCH, -e^(-1/2)/2: below it W0 iterates on eps = 1 + w. */
  private static final double NEAR_BRANCH = -0.30326532985631671;

  /** LambertW.OMEGA_LOG_SPACE: from here on W0(e^x) >= 1 and the iteration runs on x itself. */
  private static final double OMEGA_LOG_SPACE = 1;

  private VectorLambertW() {}

  /**
   * W0 ({@link ElementwiseFunction#LAMBERT_W0}) or W0(e^x) ({@link
   * ElementwiseFunction#WRIGHT_OMEGA}) on n elements of in from inOff, n a multiple of the lane
   * count, into out from outOff.
   */
  static void apply(
      ElementwiseFunction f, int n, double[] in, int inOff, double[] out, int outOff) {
    if (f != ElementwiseFunction.LAMBERT_W0 && f != ElementwiseFunction.WRIGHT_OMEGA) {
      throw new IllegalArgumentException(f + " is not a Lambert W function");
    }
    VectorMask<Double> omega = D.maskAll(f == ElementwiseFunction.WRIGHT_OMEGA);
    DoubleVector one = DoubleVector.broadcast(D, 1);
    for (int i = 0; i < n; i += D.length()) {
      DoubleVector x = DoubleVector.fromArray(D, in, inOff + i);
      VectorMask<Double> near = x.compare(LT, NEAR_BRANCH).andNot(omega);
      VectorMask<Double> logSpace = x.compare(GE, OMEGA_LOG_SPACE).and(omega);
      DoubleVector y = x.blend(x.blend(x.neg(), logSpace).lanewise(EXP), omega);

      // Branch point: d = e x + 1 from the double-double e, p = sqrt(2d), and eps = 1 + w from the
      // series of Corless et al. (Adv. Comput. Math. 5, 1996, Eq. 4.22).
      DoubleVector d = x.fma(E_HI, 1).add(x.mul(E_LO));
      DoubleVector p = d.mul(2).lanewise(SQRT);
      DoubleVector eps =
          p.mul(p.mul(p.mul(p.mul(43.0 / 540).neg().add(11.0 / 72)).add(-1.0 / 3)).add(1));
      // log1p(-d) at the branch point; log1p(y), or log1p(e^-x) in log space, elsewhere.
      DoubleVector first = y.blend(d.neg(), near).lanewise(LOG1P);
      // Winitzki's guess L (1 - log1p(L) / (2 + L)), L = log(1 + argument), as LambertW.winitzki.
      DoubleVector l = first.blend(x.add(first), logSpace);
      DoubleVector w = l.mul(one.sub(l.lanewise(LOG1P).div(l.add(2)))).blend(eps.sub(1), near);
      DoubleVector onePlusW = w.add(1).blend(eps, near);
      for (int step = 0; step < 2; step++) {
        DoubleVector log =
            y.div(w).blend(w, logSpace).sub(1).blend(onePlusW.neg(), near).lanewise(LOG1P);
        DoubleVector z =
            log.sub(w).blend(x.sub(log).sub(w), logSpace).blend(first.sub(log.add(onePlusW)), near);
        // The Fritsch-Shafer-Crowley change, as LambertW.fscCorrection.
        DoubleVector zOverOnePlusW = z.div(onePlusW);
        DoubleVector r = onePlusW.add(z.mul(2).div(3));
        DoubleVector correction =
            w.mul(zOverOnePlusW).mul(r.sub(zOverOnePlusW.mul(0.5)).div(r.sub(zOverOnePlusW)));
        // At the branch point the step goes to eps, keeping its relative precision; elsewhere to w.
        DoubleVector nextW = w.add(correction);
        DoubleVector nextEps = onePlusW.add(correction);
        w = nextW.blend(nextEps.sub(1), near);
        onePlusW = nextW.add(1).blend(nextEps, near);
      }
      // As the reference: -1 at the branch point itself (d <= 0), NaN below it; x itself for NaN
      // and
      // +Infinity; the series y - y^2 (1 - 3/2 y) at 0 (and for e^x underflowing).
      DoubleVector nearResult =
          w.blend(-1, d.compare(LE, 0))
              .blend(Double.NaN, x.compare(GE, LambertW.BRANCH_POINT).not());
      DoubleVector series = y.sub(y.mul(y).mul(one.sub(y.mul(1.5))));
      w.blend(x, x.compare(LT, Double.POSITIVE_INFINITY).not())
          .blend(nearResult, near)
          .blend(series, y.lanewise(ABS).compare(LT, SERIES_LIMIT).andNot(logSpace))
          .intoArray(out, outOff + i);
    }
  }
}
