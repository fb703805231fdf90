package org.largecat.kernel.simd;

import static jdk.incubator.vector.VectorOperators.ABS;
import static jdk.incubator.vector.VectorOperators.EQ;
import static jdk.incubator.vector.VectorOperators.EXP;
import static jdk.incubator.vector.VectorOperators.EXPM1;
import static jdk.incubator.vector.VectorOperators.GE;
import static jdk.incubator.vector.VectorOperators.GT;
import static jdk.incubator.vector.VectorOperators.IS_FINITE;
import static jdk.incubator.vector.VectorOperators.IS_NAN;
import static jdk.incubator.vector.VectorOperators.LE;
import static jdk.incubator.vector.VectorOperators.LOG;
import static jdk.incubator.vector.VectorOperators.LOG1P;
import static jdk.incubator.vector.VectorOperators.LT;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.scalar.ScalarImplicitUpdates;
import org.largecat.kernel.scalar.SingleClassImplicitStep;
import org.largecat.kernel.scalar.SingleClassImplicitStep.Coefficients;

/**
 * Implicit SGD single-class updates (Fagan and Iyengar, App. F.1) solved a vector of problems at a
 * time: the safeguarded Newton iteration of {@link SingleClassImplicitStep}, step for step, in
 * lock-step across the lanes. Every lane starts inside the same closed-form bracket, narrows it by
 * the same bounds (sign, Newton point, chord, u - g/2) and picks its next point by the same rule;
 * where the reference branches, the lanes blend. A lane leaves the iteration when its bracket is
 * narrower than 1e-13 max(1, |u|) (or g is exactly 0), so it meets the reference's accuracy, |u -
 * root| <= 1e-13 max(1, |root|) up to the rounding of g; its later iterations are ignored. NaN or
 * +-Inf in z or u_old gives NaN in both outputs, as in the reference. A lane still open after
 * {@link #MAX_EVALUATIONS} evaluations of g is solved again by the scalar reference (which needs at
 * most 1 + 2 ceil(log2(W / (1e-13 max(1, |u|)))) evaluations for a bracket of width W, fewer than
 * 200 unless W exceeds 6e16 max(1, |u|)), as are the problems after the last whole vector.
 *
 * <p>The step a(u) = W0(e^(z - u + log(c ||x||^2))) comes from {@link VectorLambertW} one vector at
 * a time through a small array, so that no vector crosses a call the JIT may leave out of line (see
 * {@link SimdSpecialFunctions}).
 */
final class SimdImplicitUpdates extends ScalarImplicitUpdates {
  private static final VectorSpecies<Double> D = SimdWidth.DOUBLES;

  /**
   * SingleClassImplicitStep.TOLERANCE: relative width of the final bracket, absolute below |u| = 1.
   */
  private static final double TOLERANCE = 1e-13;

  /**
   * SingleClassImplicitStep.BOUND_SLACK: relative allowance for rounding in the closed-form
   * bracket.
   */
  private static final double BOUND_SLACK = 1e-14;

  /** Evaluations of g after which a lane still open is left to the scalar reference. */
  static final int MAX_EVALUATIONS = 200;

  @Override
  protected void softmaxSingleClassKernel(
      int n,
      double[] z,
      int zOff,
      double[] uOld,
      int uOldOff,
      double[] xNorm2,
      int xNorm2Off,
      double eta,
      long datasetSize,
      long classCount,
      double[] uNew,
      int uNewOff,
      double[] step,
      int stepOff) {
    Coefficients c = Coefficients.of(eta, datasetSize, classCount);
    int body = D.loopBound(n);
    if (body > 0) {
      double[] work = new double[4 * D.length()];
      for (int i = 0; i < body; i += D.length()) {
        solve(
            c,
            z,
            zOff + i,
            uOld,
            uOldOff + i,
            xNorm2,
            xNorm2Off + i,
            uNew,
            uNewOff + i,
            step,
            stepOff + i,
            work);
      }
    }
    super.softmaxSingleClassKernel(
        n - body,
        z,
        zOff + body,
        uOld,
        uOldOff + body,
        xNorm2,
        xNorm2Off + body,
        eta,
        datasetSize,
        classCount,
        uNew,
        uNewOff + body,
        step,
        stepOff + body);
  }

  /**
   * One vector of problems. work holds 4 vectors: the first two carry arguments and values of
   * W0(e^x) to and from VectorLambertW, the last two the results until they are stored (the outputs
   * may alias the inputs).
   */
  private static void solve(
      Coefficients c,
      double[] zs,
      int zOff,
      double[] uOlds,
      int uOldOff,
      double[] xNorm2s,
      int xNorm2Off,
      double[] uNew,
      int uNewOff,
      double[] step,
      int stepOff,
      double[] work) {
    int lanes = D.length();
    DoubleVector z = DoubleVector.fromArray(D, zs, zOff);
    DoubleVector uOld = DoubleVector.fromArray(D, uOlds, uOldOff);
    DoubleVector xNorm2 = DoubleVector.fromArray(D, xNorm2s, xNorm2Off);
    double twoEtaN = c.twoEtaN();
    double etaN = twoEtaN / 2;
    double logEtaN = Math.log(etaN);
    VectorMask<Double> noPull = xNorm2.compare(EQ, 0);
    DoubleVector logScale =
        xNorm2.lanewise(LOG).add(c.logRate()); // log(c ||x||^2), -Infinity for ||x||^2 = 0

    // log(1 + (K-1) e^z) = softplus(log(K - 1) + z), as Logistic.softplus.
    DoubleVector s = z.add(c.logClassesMinusOne());
    DoubleVector softplusLog = s.lanewise(ABS).neg().lanewise(EXP).lanewise(LOG1P);
    DoubleVector logB = softplusLog.blend(s.add(softplusLog), s.compare(GT, 0));

    // The closed-form bracket (SingleClassImplicitStep.closedFormRoot): the roots of
    // 2 eta N (1 - B e^-u) + 2 (u - u_old) = 0 for B = 1 (below) and B = 1 + (K-1) e^z (above),
    // with
    // v = W0(e^t), t = log(eta N B) + eta N - u_old, both through one call.
    DoubleVector logEtaNBelow = DoubleVector.broadcast(D, logEtaN);
    DoubleVector logEtaNAbove = logB.add(logEtaN);
    DoubleVector tBelow = logEtaNBelow.add(etaN).sub(uOld);
    DoubleVector tAbove = logEtaNAbove.add(etaN).sub(uOld);
    tBelow.intoArray(work, 0);
    tAbove.intoArray(work, lanes);
    VectorLambertW.apply(ElementwiseFunction.WRIGHT_OMEGA, 2 * lanes, work, 0, work, 0);
    DoubleVector vBelow = DoubleVector.fromArray(D, work, 0);
    DoubleVector vAbove = DoubleVector.fromArray(D, work, lanes);
    DoubleVector rootBelow =
        uOld.sub(etaN)
            .add(vBelow)
            .blend(logEtaNBelow.sub(vBelow.lanewise(LOG)), vBelow.compare(GE, 1));
    DoubleVector rootAbove =
        uOld.sub(etaN)
            .add(vAbove)
            .blend(logEtaNAbove.sub(vAbove.lanewise(LOG)), vAbove.compare(GE, 1));
    DoubleVector roundingBelow =
        rootBelow
            .lanewise(ABS)
            .add(logEtaNBelow.lanewise(ABS))
            .add(1)
            .add(tBelow.lanewise(ABS).add(etaN).add(uOld.lanewise(ABS)).div(vBelow.add(1)));
    DoubleVector roundingAbove =
        rootAbove
            .lanewise(ABS)
            .add(logEtaNAbove.lanewise(ABS))
            .add(1)
            .add(tAbove.lanewise(ABS).add(etaN).add(uOld.lanewise(ABS)).div(vAbove.add(1)));
    DoubleVector lo = rootBelow.sub(roundingBelow.mul(BOUND_SLACK));
    DoubleVector hi = rootAbove.add(roundingAbove.mul(BOUND_SLACK));

    DoubleVector nan = DoubleVector.broadcast(D, Double.NaN);
    DoubleVector loError =
        nan; // predicted distance from lo up to the root when lo is a Newton point
    DoubleVector below = nan; // the last point where g < 0 (finite), and g there
    DoubleVector gBelow = nan;
    DoubleVector above = nan; // the last point where g > 0, and g there
    DoubleVector gAbove = nan;
    DoubleVector u = uOld;
    DoubleVector result = nan;
    DoubleVector a;
    VectorMask<Double> open = z.test(IS_FINITE).and(uOld.test(IS_FINITE));
    for (int evaluation = 0; ; evaluation++) {
      boolean last = !open.anyTrue() || evaluation == MAX_EVALUATIONS;
      if (last) {
        u = result; // one more pass for the step at the new u
      }
      // a(u) = W0(e^t) + t's rounding error times a/(1 + a), t = z - u + log(c ||x||^2) summed as a
      // double-double (TwoSum), as SingleClassImplicitStep.step; 0 for ||x||^2 = 0, NaN for NaN z -
      // u.
      DoubleVector d = z.sub(u);
      DoubleVector uPart = d.sub(z);
      DoubleVector dError = z.sub(d.sub(uPart)).sub(u.add(uPart));
      DoubleVector t = d.add(logScale);
      DoubleVector scalePart = t.sub(d);
      DoubleVector tError = d.sub(t.sub(scalePart)).add(logScale.sub(scalePart)).add(dError);
      t.intoArray(work, 0);
      VectorLambertW.apply(ElementwiseFunction.WRIGHT_OMEGA, lanes, work, 0, work, 0);
      DoubleVector w = DoubleVector.fromArray(D, work, 0);
      a = w.add(tError.mul(w.div(w.add(1)))).blend(0, noPull.andNot(d.test(IS_NAN)));
      if (last) {
        break;
      }
      VectorMask<Double> first = D.maskAll(evaluation == 0);
      // The pull a / ||x||^2, or c e^(z-u) (1 + dError) where a is subnormal or ||x||^2 = 0, and g.
      DoubleVector pull =
          a.div(xNorm2)
              .blend(
                  d.lanewise(EXP).mul(dError.add(1)).mul(c.rate()),
                  a.compare(GE, Double.MIN_NORMAL).not());
      DoubleVector expMinusU = u.neg().lanewise(EXP);
      DoubleVector g = u.neg().lanewise(EXPM1).mul(-twoEtaN).sub(pull).add(u.sub(uOld).mul(2));
      VectorMask<Double> root = g.compare(EQ, 0).and(open);
      result = result.blend(u, root);
      open = open.andNot(root);
      DoubleVector onePlusA = a.add(1);
      DoubleVector slope = expMinusU.mul(twoEtaN).add(pull.div(onePlusA)).add(2);
      DoubleVector curvature =
          expMinusU.mul(twoEtaN).add(pull.div(onePlusA.mul(onePlusA))); // |g''|
      VectorMask<Double> negative = g.compare(LT, 0);
      VectorMask<Double> notNegative =
          negative.not(); // g > 0, or NaN, as the reference's else branch
      // The paper's bracket for the sign of g(u_old): up to log(1 + (K-1) e^z) if negative; else
      // from
      // log(K-1) + z - 2 eta N ||x||^2 and from 0 (g(u_old) > 0 needs u_old > 0, and then g(0) <
      // 0).
      hi = hi.blend(hi.min(logB), negative.and(first));
      lo = lo.blend(lo.max(s.sub(xNorm2.mul(twoEtaN)).max(0)), notNegative.and(first));
      DoubleVector widthBefore = hi.sub(lo);
      // g < 0: u is a lower bound (lo moves up to it, its Newton error unknown), and u - g/2 an
      // upper
      // one as g' >= 2; otherwise u is an upper bound.
      VectorMask<Double> raise = negative.and(u.compare(GT, lo));
      lo = lo.blend(u, raise);
      loError = loError.blend(nan, raise);
      hi = hi.min(u).blend(hi.min(u.sub(g.mul(0.5))), negative);
      VectorMask<Double> finiteBelow = negative.and(g.compare(GT, Double.NEGATIVE_INFINITY));
      below = below.blend(u, finiteBelow);
      gBelow = gBelow.blend(g, finiteBelow);
      above = above.blend(u, notNegative);
      gAbove = gAbove.blend(g, notNegative);
      // Concave g: the chord's zero is an upper bound (NaN, and ignored, until both ends exist).
      DoubleVector secant = below.sub(gBelow.mul(above.sub(below).div(gAbove.sub(gBelow))));
      hi = hi.blend(secant.max(lo), secant.compare(LT, hi));
      // Concave g: the Newton point is a lower bound, about curvature step^2 / slope below the
      // root.
      DoubleVector newtonStep = g.neg().div(slope);
      DoubleVector newton = u.add(newtonStep);
      VectorMask<Double> newtonRaises = newton.compare(GT, lo);
      lo = lo.blend(newton.min(hi), newtonRaises);
      loError = loError.blend(curvature.mul(newtonStep).mul(newtonStep).div(slope), newtonRaises);

      // Converged: the bracket is narrower than TOLERANCE max(1, |lower end|); lo is the answer.
      DoubleVector width = hi.sub(lo);
      DoubleVector scale =
          DoubleVector.zero(D).blend(hi.neg(), hi.compare(LT, 0)).blend(lo, lo.compare(GT, 0));
      DoubleVector tolerance = scale.max(1).mul(TOLERANCE);
      VectorMask<Double> converged = width.compare(LE, tolerance).and(open);
      result = result.blend(lo, converged);
      open = open.andNot(converged);

      // The next point, by the reference's rule: the midpoint after an evaluation (not the first)
      // that
      // did not halve the bracket; the upper end after a first g < 0; past the Newton lower bound
      // by
      // twice its predicted error (at least half the tolerance); else the lower end, or the
      // midpoint if
      // u is the lower end.
      DoubleVector midpoint = lo.add(width.mul(0.5));
      u =
          lo.blend(midpoint, lo.compare(EQ, u))
              .blend(
                  lo.add(loError.max(tolerance.mul(0.5))).min(midpoint), loError.test(IS_NAN).not())
              .blend(hi, negative.and(first))
              .blend(midpoint, width.compare(GT, widthBefore.mul(0.5)).andNot(first));
    }

    // Lanes still open are solved again by the reference; results go through work, as the outputs
    // may
    // alias the inputs.
    result.intoArray(work, 2 * lanes);
    a.intoArray(work, 3 * lanes);
    for (int j = 0; j < lanes; j++) {
      if (open.laneIsSet(j)) {
        double zj = z.lane(j);
        double xj = xNorm2.lane(j);
        double uj = SingleClassImplicitStep.newU(c, zj, uOld.lane(j), xj);
        work[2 * lanes + j] = uj;
        work[3 * lanes + j] = SingleClassImplicitStep.step(c, zj, uj, xj);
      }
    }
    System.arraycopy(work, 2 * lanes, uNew, uNewOff, lanes);
    System.arraycopy(work, 3 * lanes, step, stepOff, lanes);
  }
}
