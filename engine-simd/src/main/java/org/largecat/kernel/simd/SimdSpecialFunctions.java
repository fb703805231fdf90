package org.largecat.kernel.simd;

import static jdk.incubator.vector.VectorOperators.ABS;
import static jdk.incubator.vector.VectorOperators.EQ;
import static jdk.incubator.vector.VectorOperators.EXP;
import static jdk.incubator.vector.VectorOperators.EXPM1;
import static jdk.incubator.vector.VectorOperators.GT;
import static jdk.incubator.vector.VectorOperators.LOG1P;
import static jdk.incubator.vector.VectorOperators.LT;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.scalar.ScalarSpecialFunctions;

/**
 * Special functions on the Vector API. Every function is its scalar reference
 * (org.largecat.special) evaluated lane by lane with the same formulas, branch-free: where the
 * reference branches on x, each branch is computed for the whole vector and the lanes are blended
 * by mask, so special values (+-0, subnormals, +-Inf, NaN) take the reference's path and get its
 * answer. The vector exp, log, log1p and expm1 (within 1 ulp, like Math's) replace Math's, except
 * that {@link VectorNormal} computes its e^{-x^2/2} inline; the elements after the last whole
 * vector go through the scalar reference.
 *
 * <p>Each family (the exp- and log-based functions here, {@link VectorNormal}, {@link
 * VectorLambertW}) is one method that loops over the array with all its vector code inline, and no
 * method takes or returns a vector. HotSpot's C2 stops inlining once a compilation has created
 * about 18,000 nodes (each Vector API operation adds a few hundred), and a vector handed to a
 * method left out of line is allocated on the heap at every call, which costs more than the
 * arithmetic. Calls to the vector exp and log come where few vectors are live, as each live vector
 * is saved around the call. On x86, C2 (JDK 25) compiles no masks of 2-lane double vectors, so with
 * 128-bit vectors these kernels run the Vector API's Java fallback: correct, but several times
 * slower than the scalar reference.
 *
 * <p>Agreement with the reference: every function keeps the bound its {@link ElementwiseFunction}
 * states (1e-13 relative, plus 1e-15 absolute for the entropies) over its whole domain, and meets
 * the reference's own contract against the oracle tables: exp and log1p within 1 ulp of the truth
 * (the Vector API's bound); log-sigmoid, log(1 - sigma), softplus, the logistic log-density and the
 * Gumbel log-cdf and log-density within 2 ulp; Polya-Gamma mean, W0 and W0(e^x) within 4 ulp; log
 * Phi and log(1 - Phi) within 1e-14 and phi/Phi within 1e-13 relative; the truncated-normal moments
 * within 1e-12 relative (entropy: 1e-12 |H| + 1e-15). {@link #applyPairKernel} gives each function
 * of a pair the same values as on its own, up to rounding; {@link #sumAndApplyKernel} sums log Phi
 * in a form of its own (VectorNormal's sumLogs), with an error below 4e-16 of the sum of |log Phi|
 * where measured (4,096 cells at a time in six ranges of x), against 2e-15 to 6e-15 for a plain sum
 * of the reference's values.
 */
final class SimdSpecialFunctions extends ScalarSpecialFunctions {
  private static final VectorSpecies<Double> D = SimdWidth.DOUBLES;

  /** PolyaGamma.SERIES_LIMIT: below this c the mean is 1/4 (1 - c^2/12). */
  private static final double PG_SERIES_LIMIT = 1e-5;

  /** PolyaGamma.SATURATED: above this c the mean is 1/(2c). */
  private static final double PG_SATURATED = 40;

  @Override
  protected void applyKernel(
      ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff) {
    int body = D.loopBound(n);
    switch (f) {
      case NORMAL_LOG_CDF,
          NORMAL_LOG_SURVIVAL,
          NORMAL_MILLS_RATIO,
          TRUNCATED_NORMAL_MEAN_POSITIVE,
          TRUNCATED_NORMAL_MEAN_NEGATIVE,
          TRUNCATED_NORMAL_VARIANCE_POSITIVE,
          TRUNCATED_NORMAL_VARIANCE_NEGATIVE,
          TRUNCATED_NORMAL_ENTROPY_POSITIVE,
          TRUNCATED_NORMAL_ENTROPY_NEGATIVE ->
          VectorNormal.apply(f, null, body, x, xOff, out, outOff, null, 0);
      case LAMBERT_W0, WRIGHT_OMEGA -> VectorLambertW.apply(f, body, x, xOff, out, outOff);
      default -> elementary(f, body, x, xOff, out, outOff);
    }
    super.applyKernel(f, n - body, x, xOff + body, out, outOff + body);
  }

  /** Two normal functions share e^{-x^2/2} and A2 in one pass; any other pair goes one by one. */
  @Override
  protected void applyPairKernel(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] x,
      int xOff,
      double[] fOut,
      int fOutOff,
      double[] gOut,
      int gOutOff) {
    if (!VectorNormal.handles(f) || !VectorNormal.handles(g)) {
      super.applyPairKernel(f, g, n, x, xOff, fOut, fOutOff, gOut, gOutOff);
      return;
    }
    int body = D.loopBound(n);
    VectorNormal.apply(f, g, body, x, xOff, fOut, fOutOff, gOut, gOutOff);
    super.applyPairKernel(
        f, g, n - body, x, xOff + body, fOut, fOutOff + body, gOut, gOutOff + body);
  }

  /**
   * log Phi and log(1 - Phi) summed by {@link VectorNormal#sum}, g a normal function or null;
   * others as the reference.
   */
  @Override
  protected double sumAndApplyKernel(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] x,
      int xOff,
      double[] gOut,
      int gOutOff) {
    if (!VectorNormal.sumsLogs(f) || (g != null && !VectorNormal.handles(g))) {
      return super.sumAndApplyKernel(f, g, n, x, xOff, gOut, gOutOff);
    }
    int body = D.loopBound(n);
    double sum = VectorNormal.sum(f, g, body, x, xOff, gOut, gOutOff);
    return sum + super.sumAndApplyKernel(f, g, n - body, x, xOff + body, gOut, gOutOff + body);
  }

  /** The exp- and log-based functions on n elements, n a multiple of the lane count. */
  private static void elementary(
      ElementwiseFunction f, int n, double[] in, int inOff, double[] out, int outOff) {
    // log sigma(x) = -softplus(-x) and log(1 - sigma(x)) = -softplus(x).
    double argumentSign = f == ElementwiseFunction.LOG_SIGMOID ? -1 : 1;
    double resultSign = f == ElementwiseFunction.SOFTPLUS ? 1 : -1;
    for (int i = 0; i < n; i += D.length()) {
      DoubleVector x = DoubleVector.fromArray(D, in, inOff + i);
      int at = outOff + i;
      switch (f) {
        case EXP -> x.lanewise(EXP).intoArray(out, at);
        case LOG1P -> x.lanewise(LOG1P).intoArray(out, at);
        case SOFTPLUS, LOG_SIGMOID, LOGISTIC_LOG_SURVIVAL -> {
          // Logistic.softplus: x + log1p(e^-x) for x > 0, log1p(e^x) otherwise, e^-|x| either way.
          DoubleVector v = x.mul(argumentSign);
          DoubleVector log = v.lanewise(ABS).neg().lanewise(EXP).lanewise(LOG1P);
          log.blend(v.add(log), v.compare(GT, 0)).mul(resultSign).intoArray(out, at);
        }
        case LOGISTIC_LOG_PDF -> {
          // Logistic.logPdf: -(|x| + 2 log1p(e^-|x|)).
          DoubleVector t = x.lanewise(ABS);
          t.add(t.neg().lanewise(EXP).lanewise(LOG1P).mul(2)).neg().intoArray(out, at);
        }
        case GUMBEL_LOG_CDF -> x.neg().lanewise(EXP).neg().intoArray(out, at);
        case GUMBEL_LOG_PDF -> {
          // Gumbel.logPdf: -x - e^-x, and -Infinity at -Infinity.
          DoubleVector minusX = x.neg();
          minusX
              .sub(minusX.lanewise(EXP))
              .blend(x, x.compare(EQ, Double.NEGATIVE_INFINITY))
              .intoArray(out, at);
        }
        case POLYA_GAMMA_MEAN -> {
          // PolyaGamma.mean at c = |x|: the series 1/4 (1 - c^2/12) below 1e-5, 1/(2c) above 40,
          // and
          // between them -m/2 / fma(m, c, 2c) with m = expm1(-c), the reference's form below c = 1.
          // Above
          // 1 it equals the reference's (1 - e^-c)/2 / fma(e^-c, c, c), as 1 - e^-c = -m and
          // 1 + e^-c = 2 + m, so one vector expm1 serves the whole range.
          DoubleVector c = x.lanewise(ABS);
          DoubleVector m = c.neg().lanewise(EXPM1);
          m.mul(-0.5)
              .div(m.fma(c, c.mul(2)))
              .blend(DoubleVector.broadcast(D, 0.5).div(c), c.compare(GT, PG_SATURATED))
              .blend(c.mul(c).div(12).neg().add(1).mul(0.25), c.compare(LT, PG_SERIES_LIMIT))
              .intoArray(out, at);
        }
        default -> throw new IllegalArgumentException(f + " is not an exp- or log-based function");
      }
    }
  }
}
