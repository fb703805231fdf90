package org.largecat.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;

/** LambertW against its 60-digit oracle tables on every backend, and identities that can fail. */
class LambertWOracleTest {

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void w0WithinFourUlpsIncludingTheBranchPoint(Kernels k) {
    ElementwiseOracle.check(k, ElementwiseFunction.LAMBERT_W0, "w", 4);
  }

  /**
   * The same contract holds close to -1/e, where the distance to the branch point carries the
   * answer.
   */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void w0WithinFourUlpsWithin1e3OfTheBranchPoint(Kernels k) {
    double near = LambertW.BRANCH_POINT + 1e-3;
    ElementwiseOracle.check(
        k, ElementwiseFunction.LAMBERT_W0, "w", 4, x -> x < near, " within 1e-3 of -1/e");
  }

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void wrightOmegaWithinFourUlps(Kernels k) {
    ElementwiseOracle.check(k, ElementwiseFunction.WRIGHT_OMEGA, "w", 4);
  }

  @Test
  void branchPointConventionAndDomain() {
    assertEquals(
        -1.0, LambertW.w0(LambertW.BRANCH_POINT), "the double nearest -1/e stands for -1/e");
    BigDecimal minusOneOverE = HighPrecision.exp(BigDecimal.ONE.negate()).negate();
    BigDecimal below = minusOneOverE.subtract(new BigDecimal(LambertW.BRANCH_POINT));
    assertTrue(
        below.signum() > 0 && below.doubleValue() <= Math.ulp(LambertW.BRANCH_POINT) / 2,
        "BRANCH_POINT is the double nearest -1/e, just below it");
    assertTrue(Double.isNaN(LambertW.w0(Math.nextDown(LambertW.BRANCH_POINT))));
    assertTrue(Double.isNaN(LambertW.w0(Double.NEGATIVE_INFINITY)));
    assertTrue(Double.isNaN(LambertW.w0(Double.NaN)));
    assertTrue(Double.isNaN(LambertW.w0OfExp(Double.NaN)));
    assertEquals(Double.POSITIVE_INFINITY, LambertW.w0(Double.POSITIVE_INFINITY));
    assertEquals(Double.POSITIVE_INFINITY, LambertW.w0OfExp(Double.POSITIVE_INFINITY));
    assertEquals(0.0, LambertW.w0OfExp(Double.NEGATIVE_INFINITY));
  }

  @Test
  void signedZerosAndSubnormalsPassThrough() {
    assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(LambertW.w0(0.0)));
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(LambertW.w0(-0.0)));
    for (double tiny :
        new double[] {Double.MIN_VALUE, -Double.MIN_VALUE, 3e-320, -Double.MIN_NORMAL}) {
      assertEquals(tiny, LambertW.w0(tiny), "w0(" + tiny + ")");
    }
  }

  /**
   * W0 is increasing: checked on consecutive doubles just above the branch point and on sorted
   * random points.
   */
  @Test
  void increasing() {
    double x = LambertW.BRANCH_POINT;
    double previous = LambertW.w0(x);
    for (int i = 0; i < 200; i++) {
      x = Math.nextUp(x);
      double w = LambertW.w0(x);
      assertTrue(w > previous, "w0 not increasing at x=" + x + ": " + w + " after " + previous);
      previous = w;
    }
    double[] xs = new SplittableRandom(11).doubles(2000, -0.36, 50).sorted().toArray();
    for (int i = 1; i < xs.length; i++) {
      assertTrue(
          LambertW.w0(xs[i]) >= LambertW.w0(xs[i - 1]),
          "w0 decreasing between " + xs[i - 1] + " and " + xs[i]);
    }
  }

  /**
   * w e^w = x, checked in 60-digit decimal arithmetic at random x: the residual r = w e^w - x of
   * the returned w, divided by the derivative e^w (1 + w), is w's error to first order.
   */
  @Test
  void productIdentityInHighPrecision() {
    SplittableRandom random = new SplittableRandom(12);
    double worst = 0;
    for (int i = 0; i < 3000; i++) {
      double x =
          switch (i % 3) {
            case 0 -> Math.pow(10, -300 + 600 * random.nextDouble());
            case 1 -> -random.nextDouble() / Math.E;
            default -> 40 * random.nextDouble();
          };
      double w = LambertW.w0(x);
      BigDecimal bw = new BigDecimal(w);
      BigDecimal ew = HighPrecision.exp(bw);
      BigDecimal residual =
          bw.multiply(ew, HighPrecision.MC).subtract(new BigDecimal(x), HighPrecision.MC);
      BigDecimal slope = ew.multiply(BigDecimal.ONE.add(bw), HighPrecision.MC);
      double errUlps = residual.divide(slope, HighPrecision.MC).abs().doubleValue() / Math.ulp(w);
      worst = Math.max(worst, errUlps);
      assertTrue(
          errUlps <= 4,
          "w0(" + x + ") = " + w + " is " + errUlps + " ulp from the root of w e^w = x");
    }
    System.out.printf("identity w0(x) e^w0(x) = x: max err %.3g ulp over 3000 random x%n", worst);
  }

  /** w + log w = x for the Wright omega function, again in 60-digit arithmetic. */
  @Test
  void wrightOmegaIdentityInHighPrecision() {
    SplittableRandom random = new SplittableRandom(13);
    double worst = 0;
    for (int i = 0; i < 2000; i++) {
      double x = -30 + 700 * random.nextDouble();
      double w = LambertW.w0OfExp(x);
      BigDecimal bw = new BigDecimal(w);
      // e^(w + log w - x) - 1 = w e^w / e^x - 1, the relative residual; divided by (1 + w) it is
      // w's relative error.
      BigDecimal ratio =
          bw.multiply(HighPrecision.exp(bw.subtract(new BigDecimal(x))), HighPrecision.MC);
      double relative = ratio.subtract(BigDecimal.ONE).doubleValue() / (1 + w);
      double errUlps = Math.abs(relative * w) / Math.ulp(w);
      worst = Math.max(worst, errUlps);
      assertTrue(
          errUlps <= 4,
          "w0OfExp(" + x + ") = " + w + " is " + errUlps + " ulp from the root of w + log w = x");
    }
    System.out.printf(
        "identity w + log w = x for w0OfExp: max err %.3g ulp over 2000 random x%n", worst);
  }

  /** Decimal arithmetic at 60 digits: exp by halving, Taylor series and squaring back. */
  static final class HighPrecision {
    static final MathContext MC = new MathContext(60);

    private HighPrecision() {}

    static BigDecimal exp(BigDecimal x) {
      int halvings =
          Math.max(0, (int) Math.ceil(Math.log(Math.abs(x.doubleValue()) + 1) / Math.log(2)) + 10);
      BigDecimal r = x.divide(BigDecimal.TWO.pow(halvings), MC);
      BigDecimal sum = BigDecimal.ONE;
      BigDecimal term = BigDecimal.ONE;
      for (int n = 1; n < 40; n++) {
        term = term.multiply(r, MC).divide(BigDecimal.valueOf(n), MC);
        sum = sum.add(term, MC);
      }
      for (int i = 0; i < halvings; i++) {
        sum = sum.multiply(sum, MC);
      }
      return sum;
    }
  }
}
