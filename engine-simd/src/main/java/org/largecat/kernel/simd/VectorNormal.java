package org.largecat.kernel.simd;

import static jdk.incubator.vector.VectorOperators.ADD;
import static jdk.incubator.vector.VectorOperators.EQ;
import static jdk.incubator.vector.VectorOperators.GE;
import static jdk.incubator.vector.VectorOperators.GT;
import static jdk.incubator.vector.VectorOperators.LOG1P;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LT;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.special.NormalTailFit;

/**
 * The standard normal log-cdf, inverse Mills ratio and truncated-normal moments of {@link
 * org.largecat.special.Normal} and {@link org.largecat.special.TruncatedNormal}, lane by lane, from
 * A2(t) of {@link NormalTailFit}: its rational fit below 8, where the references take a piece of
 * the piecewise one (looking the piece up costs a vector a table lookup per coefficient, more than
 * the rational's extra terms), and its last piece beyond.
 *
 * <p>The references branch on the sign of x; here both sides are computed for every lane and
 * blended, except in a run of elements that are all on the right ({@link #evaluate}). Each side
 * works on t >= 0: t = -x on the left (x < 0) and t = min(x, 39) on the right, where phi and Q have
 * underflowed to 0 at 39 (phi(39) is about 1e-331), so the clamp gives the references' 0 and -0
 * above it. The negative truncation side is the positive one at -mu (the mean negated), as in
 * TruncatedNormal.
 *
 * <p>The quantities are the references', rearranged so that each function divides once besides the
 * 1/t of the last piece (the variance and entropy, which need A2 itself, twice), since a vector
 * division costs per lane what a scalar one does. With A2 = P/S, d = S (t + A2) = t S + P and dd =
 * t d + S (two fmas), the continued fraction gives A1 = S/d, R = 1/(t + A1) = d/dd and phi/Phi =
 * phi/(1 - R phi) = phi dd/(dd - d phi); each function takes the quotient it needs on either side
 * (A1 on the left; R, Q = R phi or phi/Phi on the right) from one division of blended numerators
 * and denominators. Likewise the one logarithm on either side is a single vector log1p: log(t + A1)
 * on the left is log1p((t + A1) - 1), where the subtraction is exact (Sterbenz below 2; above, 1 is
 * a multiple of the ulp) below 2^53 and changes the logarithm by less than 2^-53 beyond. Each form
 * rounds a few times, as the reference's does, so the two agree to a few ulps.
 */
final class VectorNormal {
  private static final VectorSpecies<Double> D = SimdWidth.DOUBLES;

  /** log(2 pi)/2, as in Normal. */
  private static final double HALF_LOG_2PI = 0.9189385332046728;

  /** 1/sqrt(2 pi). */
  private static final double INV_SQRT_2PI = 0.3989422804014327;

  /** log(2 pi e)/2, the entropy of N(mu, 1), as in TruncatedNormal. */
  private static final double HALF_LOG_2PI_E = 1.4189385332046727;

  /** Normal.UPPER_UNDERFLOW: from here on phi(x) and Q(x) are 0 in double. */
  private static final double UPPER_UNDERFLOW = 39;

  /**
   * 1/log 2, and log 2 as hi + lo with hi's 21 low bits zero, so that k hi is exact for |k| < 2^21.
   */
  private static final double LOG2_E = 1.4426950408889634;

  private static final double LN2_HI = 0.6931471803691238;
  private static final double LN2_LO = 1.9082149292705877e-10;

  /** 1.5 * 2^52: adding it rounds to an integer k, and the sum's bits minus its own are k. */
  private static final double SHIFTER = 0x1.8p52;

  private static final long SHIFTER_BITS = Double.doubleToRawLongBits(SHIFTER);

  /** 1/j! for j = 0 .. 13. */
  private static final double[] EXP_TAYLOR = new double[14];

  static {
    double factorial = 1;
    for (int j = 0; j < EXP_TAYLOR.length; j++) {
      factorial *= Math.max(j, 1);
      EXP_TAYLOR[j] = 1 / factorial;
    }
  }

  private static final double SPLIT = NormalTailFit.SPLIT;

  /** A2 = P/S below SPLIT: P's and S's coefficients, constant term first. */
  private static final double[] NUMERATOR = NormalTailFit.rationalNumerator();

  private static final double[] DENOMINATOR = NormalTailFit.rationalDenominator();

  /**
   * The last piece's coefficients, t A2(t) in u = (SPLIT/t)^2 - 1/2 from SPLIT on, constant term
   * first.
   */
  private static final double[] LAST =
      java.util.Arrays.copyOfRange(
          NormalTailFit.coefficients(),
          (int) SPLIT * (NormalTailFit.DEGREE + 1),
          ((int) SPLIT + 1) * (NormalTailFit.DEGREE + 1));

  /**
   * Elements per block of {@link #apply}: each block's arguments are copied aside first, so that
   * {@link #finishLog} can read them again whatever the outputs (which may be the input) overwrote.
   */
  private static final int BLOCK = 512;

  /** Elements per run of {@link #evaluate}, a divisor of BLOCK. */
  private static final int RUN = 64;

  private static final ThreadLocal<double[]> ARGUMENTS =
      ThreadLocal.withInitial(() -> new double[BLOCK]);

  /** The block's phi(x), from {@link #densities}. */
  private static final ThreadLocal<double[]> DENSITIES =
      ThreadLocal.withInitial(() -> new double[BLOCK]);

  /** The block's log1p arguments of f, when {@link #sum} sums f rather than writing it. */
  private static final ThreadLocal<double[]> LOG_ARGUMENTS =
      ThreadLocal.withInitial(() -> new double[BLOCK]);

  private VectorNormal() {}

  /** Whether f is one of the normal functions here, and so g can share its work with it. */
  static boolean handles(ElementwiseFunction f) {
    return switch (f) {
      case NORMAL_LOG_CDF,
          NORMAL_LOG_SURVIVAL,
          NORMAL_MILLS_RATIO,
          TRUNCATED_NORMAL_MEAN_POSITIVE,
          TRUNCATED_NORMAL_MEAN_NEGATIVE,
          TRUNCATED_NORMAL_VARIANCE_POSITIVE,
          TRUNCATED_NORMAL_VARIANCE_NEGATIVE,
          TRUNCATED_NORMAL_ENTROPY_POSITIVE,
          TRUNCATED_NORMAL_ENTROPY_NEGATIVE ->
          true;
      default -> false;
    };
  }

  /**
   * -1 for the functions evaluated at -x (log Q(x) = log Phi(-x), the negative truncation side),
   * else 1.
   */
  static double side(ElementwiseFunction f) {
    return switch (f) {
      case NORMAL_LOG_SURVIVAL,
          TRUNCATED_NORMAL_MEAN_NEGATIVE,
          TRUNCATED_NORMAL_VARIANCE_NEGATIVE,
          TRUNCATED_NORMAL_ENTROPY_NEGATIVE ->
          -1;
      default -> 1;
    };
  }

  /**
   * One or two of the normal functions ({@code NORMAL_*}, {@code TRUNCATED_NORMAL_*}) on n elements
   * of in from inOff, n a multiple of the lane count: f into out from outOff and, unless g is null,
   * g into gOut from gOutOff, from one evaluation of the shared parts. Those depend on t = |x|
   * alone, so g may be of the other {@link #side} (log Phi(x) with log Phi(-x)), except that t is
   * clamped at 39 on f's right: a vector with a lane beyond it takes g on its own.
   */
  static void apply(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] in,
      int inOff,
      double[] out,
      int outOff,
      double[] gOut,
      int gOutOff) {
    run(f, g, n, in, inOff, out, outOff, gOut, gOutOff);
  }

  /**
   * As {@link #apply}, but returns the sum of f's values rather than writing them; f is log Phi or
   * log(1 - Phi) ({@link #sumsLogs}).
   */
  static double sum(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] in,
      int inOff,
      double[] gOut,
      int gOutOff) {
    return run(f, g, n, in, inOff, null, 0, gOut, gOutOff);
  }

  /** Whether {@link #sum} takes f. */
  static boolean sumsLogs(ElementwiseFunction f) {
    return f == ElementwiseFunction.NORMAL_LOG_CDF || f == ElementwiseFunction.NORMAL_LOG_SURVIVAL;
  }

  /** {@link #apply}, or with out null, {@link #sum}. */
  private static double run(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] in,
      int inOff,
      double[] out,
      int outOff,
      double[] gOut,
      int gOutOff) {
    double[] x = ARGUMENTS.get();
    double[] phi = DENSITIES.get();
    double[] logArguments = out == null ? LOG_ARGUMENTS.get() : null;
    double sum = 0;
    for (int b = 0; b < n; b += BLOCK) {
      int m = Math.min(BLOCK, n - b);
      System.arraycopy(in, inOff + b, x, 0, m);
      densities(m, x, phi);
      if (out == null) {
        evaluate(f, g, m, x, phi, 0, logArguments, 0, gOut, gOutOff + b);
        sum += sumLogs(f, m, x, logArguments);
      } else {
        evaluate(f, g, m, x, phi, 0, out, outOff + b, gOut, gOutOff + b);
        finishLog(f, m, x, 0, out, outOff + b);
      }
      if (g != null) {
        finishLog(g, m, x, 0, gOut, gOutOff + b);
      }
    }
    return sum;
  }

  /**
   * {@link #apply} on a block, except that log Phi and log(1 - Phi) are left as their log1p's
   * argument; densities[i] holds phi(x) for in[i] (with |x| clamped at 39).
   *
   * <p>The elements go in runs of {@link #RUN}. A run is right when f and g are of the positive
   * {@link #side} and none of its lanes is below 0 (NaN may be), as nearly every run of the probit
   * CAVI's cells is: it then leaves out the left-hand formulas and their blends. C2 compiles the
   * loop over a run once for either value of right, as right does not change in it (so no vector is
   * merged from two paths, which would allocate it).
   */
  private static void evaluate(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] in,
      double[] densities,
      int inOff,
      double[] out,
      int outOff,
      double[] gOut,
      int gOutOff) {
    double side = side(f);
    boolean positive = side > 0 && (g == null || side(g) > 0);
    int outputs = g == null ? 1 : 2;
    DoubleVector one = DoubleVector.broadcast(D, 1);
    for (int run = 0; run < n; run += RUN) {
      int runEnd = Math.min(run + RUN, n);
      boolean right = positive && noneNegative(in, inOff + run, inOff + runEnd);
      for (int i = run; i < runEnd; i += D.length()) {
        DoubleVector x = DoubleVector.fromArray(D, in, inOff + i);
        x = right ? x : x.mul(side);
        DoubleVector t = x.min(UPPER_UNDERFLOW); // NaN stays NaN
        t = right ? t : t.blend(x.neg(), x.compare(LT, 0));
        // phi(t), used on the right, where t <= 39.
        DoubleVector phi = DoubleVector.fromArray(D, densities, inOff + i);
        // A2(t) = P(t)/S(t) below SPLIT (NormalTailFit's rational fit, whose coefficients are all
        // positive, so neither Horner chain cancels; a piecewise fit would cost a table lookup per
        // coefficient to take each lane's piece); from SPLIT on (and at +Infinity, giving 0) the
        // reference's last piece in u = (SPLIT/t)^2 - 1/2 times 1/t, over S = 1 (SPLIT/t is SPLIT
        // times
        // 1/t exactly, SPLIT being a power of 2). A vector with no lane that far (most, in
        // practice) skips
        // that piece and its division by t. The quotient P/S is not taken (d and dd carry S, as in
        // the
        // class comment); only the variance and entropy divide for A2 itself.
        VectorMask<Double> far = t.compare(GE, SPLIT);
        // Each Horner chain is written out where it is used: C2 may decline to inline a helper at a
        // call
        // site it deems cold (more than 35 bytes), and every vector would then be boxed.
        DoubleVector p = DoubleVector.broadcast(D, NUMERATOR[NUMERATOR.length - 1]);
        for (int j = NUMERATOR.length - 2; j >= 0; j--) {
          p = p.fma(t, DoubleVector.broadcast(D, NUMERATOR[j]));
        }
        DoubleVector s = DoubleVector.broadcast(D, DENOMINATOR[DENOMINATOR.length - 1]);
        for (int j = DENOMINATOR.length - 2; j >= 0; j--) {
          s = s.fma(t, DoubleVector.broadcast(D, DENOMINATOR[j]));
        }
        if (far.anyTrue()) {
          DoubleVector reciprocal = one.div(t);
          DoubleVector w = reciprocal.mul(SPLIT);
          DoubleVector u = w.mul(w).sub(0.5);
          DoubleVector last = DoubleVector.broadcast(D, LAST[LAST.length - 1]);
          for (int j = LAST.length - 2; j >= 0; j--) {
            last = last.fma(u, DoubleVector.broadcast(D, LAST[j]));
          }
          p = p.blend(last.mul(reciprocal), far);
          s = s.blend(one, far);
        }
        DoubleVector d = t.fma(s, p); // S/A1
        DoubleVector dd = t.fma(d, s); // d/R

        // Each output from the parts above, one store per case, so that no vector merges from the
        // cases.
        for (int output = 0; output < outputs; output++) {
          ElementwiseFunction function = output == 0 ? f : g;
          double[] target = output == 0 ? out : gOut;
          int at = (output == 0 ? outOff : gOutOff) + i;
          // This output's argument: x, or -x for a function of the other side (a product, not a
          // choice between vectors, so no vector merges).
          double flip = side(function) * side;
          if (flip < 0 && t.compare(GE, UPPER_UNDERFLOW).anyTrue()) {
            evaluate(function, null, D.length(), in, densities, inOff + i, target, at, null, 0);
            continue;
          }
          // With right, flip and this side are 1 and no lane is on the left.
          DoubleVector xo = right ? x : x.mul(flip);
          VectorMask<Double> left = xo.compare(LT, 0);
          double outSide = side(function);
          switch (function) {
            case NORMAL_LOG_CDF, NORMAL_LOG_SURVIVAL -> {
              // The argument of the log1p: t + A1 - 1 on the left, -Q with Q = phi R on the right.
              DoubleVector q =
                  right ? d.div(dd) : d.blend(s, left).div(dd.blend(d, left)); // A1 = S/d, R = d/dd
              DoubleVector minusQ = phi.mul(q).neg();
              (right ? minusQ : minusQ.blend(t.add(q).sub(1), left)).intoArray(target, at);
            }
            case NORMAL_MILLS_RATIO,
                TRUNCATED_NORMAL_MEAN_POSITIVE,
                TRUNCATED_NORMAL_MEAN_NEGATIVE,
                TRUNCATED_NORMAL_VARIANCE_POSITIVE,
                TRUNCATED_NORMAL_VARIANCE_NEGATIVE -> {
              // A1 = S/d on the left, phi/Phi = phi dd/(dd - d phi) on the right.
              DoubleVector numerator = phi.mul(dd);
              DoubleVector denominator = d.neg().fma(phi, dd);
              DoubleVector q =
                  right
                      ? numerator.div(denominator)
                      : numerator.blend(s, left).div(denominator.blend(d, left));
              switch (function) {
                // phi/Phi: t + A1 on the left.
                case NORMAL_MILLS_RATIO ->
                    (right ? q : q.blend(t.add(q), left)).intoArray(target, at);
                // A1(-mu) for mu < 0, mu + phi(mu)/Phi(mu) otherwise; negated for the negative
                // side.
                case TRUNCATED_NORMAL_MEAN_POSITIVE, TRUNCATED_NORMAL_MEAN_NEGATIVE -> {
                  DoubleVector mean = xo.add(q);
                  (right ? mean : mean.blend(q, left).mul(outSide)).intoArray(target, at);
                }
                // A1 (A2 - A1), at least Double.MIN_VALUE, for mu < 0; 1 - lambda (m + lambda)
                // otherwise,
                // with m = min(mu, 39) = t and lambda = phi(m)/Phi(m).
                default -> {
                  DoubleVector variance = one.sub(q.mul(t.add(q)));
                  DoubleVector leftVariance = q.mul(p.div(s).sub(q)).max(Double.MIN_VALUE);
                  (right ? variance : variance.blend(leftVariance, left)).intoArray(target, at);
                }
              }
            }
            case TRUNCATED_NORMAL_ENTROPY_POSITIVE, TRUNCATED_NORMAL_ENTROPY_NEGATIVE -> {
              // 1 - A1 A2/2 - log(t + A1) for mu < 0; log(2 pi e)/2 + log1p(-Q) - m lambda/2
              // otherwise,
              // with Q = R phi = d phi/dd and lambda = phi/(1 - Q).
              DoubleVector dPhi = d.mul(phi);
              DoubleVector q =
                  right
                      ? dPhi.div(dd)
                      : dPhi.blend(s, left).div(dd.blend(d, left)); // A1 = S/d, Q = d phi/dd
              DoubleVector log =
                  (right ? q.neg() : q.neg().blend(t.add(q).sub(1), left)).lanewise(LOG1P);
              DoubleVector lambda = phi.div(one.sub(q));
              DoubleVector entropy = log.add(HALF_LOG_2PI_E).sub(t.mul(0.5).mul(lambda));
              DoubleVector leftEntropy = one.sub(q.mul(0.5).mul(p.div(s))).sub(log);
              (right ? entropy : entropy.blend(leftEntropy, left)).intoArray(target, at);
            }
            default -> throw new IllegalArgumentException(function + " is not a normal function");
          }
        }
      }
    }
  }

  /**
   * phi[i] = phi(t), t = min(|x[i]|, 39): e^{-t^2/2}, as Normal's with t^2/2 = hi + lo exactly and
   * e^{-lo} = 1 - lo, times 1/sqrt(2 pi). e^{-hi} is computed here rather than by the vector exp,
   * whose library routine costs more than this polynomial, and in a loop of its own, since inside
   * {@link #evaluate} C2 stopped inlining the vector intrinsics: -hi = k log 2 + r with k =
   * round(-hi / log 2) read from the low bits of a shifted sum and |r| <= log(2)/2; e^r from its
   * Taylor polynomial to r^13 (the next term is below 6e-18 of it) as 1 + r (1 + r H), H's even and
   * odd powers being two Horner chains in r^2 that overlap, half as long as one; times 1 - lo in
   * one fma, then 2^k as 2^(k + 100), normal for k >= -1097 (hi <= 39^2/2) and so exact, and
   * 2^-100/sqrt(2 pi), which rounds once. e^{-hi} is within 1 ulp of StrictMath.exp (2e7 points of
   * [-760.5, 0] with a normal result, checked once in scalar with the same fmas), as Math.exp is.
   */
  private static void densities(int n, double[] x, double[] phi) {
    DoubleVector one = DoubleVector.broadcast(D, 1);
    for (int i = 0; i < n; i += D.length()) {
      DoubleVector t = DoubleVector.fromArray(D, x, i).abs().min(UPPER_UNDERFLOW); // NaN stays NaN
      DoubleVector halfT = t.mul(0.5);
      DoubleVector y = t.mul(halfT).neg(); // -hi
      DoubleVector lo = t.fma(halfT, y);
      DoubleVector shifted =
          y.fma(DoubleVector.broadcast(D, LOG2_E), DoubleVector.broadcast(D, SHIFTER));
      DoubleVector k = shifted.sub(SHIFTER);
      DoubleVector r = k.fma(DoubleVector.broadcast(D, -LN2_HI), y);
      r = k.fma(DoubleVector.broadcast(D, -LN2_LO), r);
      DoubleVector r2 = r.mul(r);
      DoubleVector even = DoubleVector.broadcast(D, EXP_TAYLOR[12]);
      DoubleVector odd = DoubleVector.broadcast(D, EXP_TAYLOR[13]);
      for (int j = 10; j >= 2; j -= 2) {
        even = even.fma(r2, DoubleVector.broadcast(D, EXP_TAYLOR[j]));
        odd = odd.fma(r2, DoubleVector.broadcast(D, EXP_TAYLOR[j + 1]));
      }
      DoubleVector p = odd.fma(r, even).fma(r, one).fma(r, one);
      // The biased exponent of 2^(k + 100), k + 100 + 1023, from the shifted sum's bits in one
      // subtraction.
      DoubleVector scale =
          shifted
              .reinterpretAsLongs()
              .sub(SHIFTER_BITS - 1123)
              .lanewise(LSHL, 52)
              .reinterpretAsDoubles();
      p.neg().fma(lo, p).mul(scale).mul(0x1p-100 * INV_SQRT_2PI).intoArray(phi, i);
    }
  }

  /** Whether none of x[from], ..., x[to - 1] is below 0, to - from a multiple of the lane count. */
  private static boolean noneNegative(double[] x, int from, int to) {
    for (int i = from; i < to; i += D.length()) {
      if (DoubleVector.fromArray(D, x, i).compare(LT, 0).anyTrue()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Turns the log1p arguments {@link #evaluate} left for log Phi or log(1 - Phi) into the function:
   * -hi - (lo + log(2 pi)/2 + log(t + A1)) on the left (-Infinity once hi overflows), log1p(-Q) on
   * the right. Here, in a pass of its own: inside the main loop C2 spills every live vector around
   * the call to the vector log1p.
   */
  private static void finishLog(
      ElementwiseFunction f, int n, double[] in, int inOff, double[] out, int outOff) {
    if (!sumsLogs(f)) {
      return;
    }
    double side = side(f);
    for (int i = 0; i < n; i += D.length()) {
      DoubleVector t =
          DoubleVector.fromArray(D, in, inOff + i).mul(-side); // t = -x, for the left lanes
      DoubleVector hi = t.mul(t.mul(0.5));
      DoubleVector lo = t.fma(t.mul(0.5), hi.neg());
      DoubleVector log = DoubleVector.fromArray(D, out, outOff + i).lanewise(LOG1P);
      DoubleVector leftValue =
          hi.neg()
              .sub(lo.add(HALF_LOG_2PI).add(log))
              .blend(Double.NEGATIVE_INFINITY, hi.compare(EQ, Double.POSITIVE_INFINITY));
      log.blend(leftValue, t.compare(GT, 0)).intoArray(out, outOff + i);
    }
  }

  /**
   * The sum of log Phi or log(1 - Phi) over a block of in, from the log1p arguments {@link
   * #evaluate} left in args (overwritten). A vector with a lane on the left (x < 0 for log Phi) is
   * finished as {@link #finishLog} does and added lane by lane. On the right every term is log(1 -
   * Q), and rather than a log1p each, every lane keeps E = 1 - prod(1 - Q) over its right-hand
   * terms since the last logarithm, E <- E + Q (1 - E): one fma whose terms are all at least 0, so
   * each step adds at most 2 ulps to E's relative error. log1p(-E) joins the sum once a lane's E
   * reaches 1/2 (so E < 3/4, where log1p(-E) has condition number below 2.2) and at the end of the
   * block (at most BLOCK/L steps a lane: 64 with 8 lanes, a relative error below 3e-14 in the worst
   * case, below 4e-16 as measured; the sum's contract is ten times log Phi's 1e-14). So the right
   * tail costs a logarithm per lane and run of terms, not one per cell as the pair and a sum of its
   * values would. A NaN stays on the right and makes the sum NaN.
   */
  private static double sumLogs(ElementwiseFunction f, int n, double[] in, double[] args) {
    double side = side(f);
    DoubleVector one = DoubleVector.broadcast(D, 1);
    DoubleVector sum = DoubleVector.zero(D);
    DoubleVector e = DoubleVector.zero(D);
    for (int i = 0; i < n; i += D.length()) {
      if (DoubleVector.fromArray(D, in, i).mul(side).compare(LT, 0).anyTrue()) {
        finishLog(f, D.length(), in, i, args, i);
        sum = sum.add(DoubleVector.fromArray(D, args, i));
      } else {
        e = DoubleVector.fromArray(D, args, i).neg().fma(one.sub(e), e); // args holds -Q
        if (e.compare(GE, 0.5).anyTrue()) {
          sum = sum.add(e.neg().lanewise(LOG1P));
          e = DoubleVector.zero(D);
        }
      }
    }
    return sum.add(e.neg().lanewise(LOG1P)).reduceLanes(ADD);
  }
}
