package org.largecat.kernel;

/**
 * How closely a backend must agree with the scalar reference, kernel by kernel: bit-exact where the
 * operation is exact, the function's stated bound for elementwise functions, and error bounds
 * scaled by the length and the magnitude of the terms for reductions (Higham, Accuracy and
 * Stability of Numerical Algorithms, ch. 3). Used by check mode and by the cross-validation suite.
 */
public final class Agreement {
  /**
   * Twice the unit roundoff of double: room for both the backend's and the reference's rounding.
   */
  public static final double DOUBLE_UNIT = 0x1p-52;

  /** Twice the unit roundoff of float. */
  public static final double FLOAT_UNIT = 0x1p-23;

  private Agreement() {}

  /**
   * Whether two results agree within |got - ref| <= bound; NaN agrees only with NaN, infinities
   * only with themselves.
   */
  public static boolean within(double got, double ref, double bound) {
    if (Double.isNaN(got) || Double.isNaN(ref)) {
      return Double.isNaN(got) && Double.isNaN(ref);
    }
    if (got == ref) {
      return true;
    }
    return Double.isFinite(got) && Double.isFinite(ref) && Math.abs(got - ref) <= bound;
  }

  /**
   * Bound for an elementwise function value: its relative and absolute tolerance, subnormals at the
   * scale of the smallest normal.
   */
  public static double elementwise(ElementwiseFunction f, double ref) {
    return f.relativeTolerance() * Math.max(Math.abs(ref), Double.MIN_NORMAL)
        + f.absoluteTolerance();
  }

  /**
   * Bound for {@link SpecialFunctions#sumAndApply}'s sum of n values of f whose absolute values sum
   * to magnitude: ten times f's bound on every term, as a backend may sum in its own form (the simd
   * log Phi multiplies up to a block's share of its right tail's 1 - Phi before taking one
   * logarithm), and the rounding of the sum.
   */
  public static double sumOfElementwise(ElementwiseFunction f, int n, double magnitude) {
    double terms =
        f.relativeTolerance() * (magnitude + n * Double.MIN_NORMAL) + n * f.absoluteTolerance();
    return 10 * terms + sum(n, magnitude, DOUBLE_UNIT);
  }

  /**
   * Bound for a float exponential, 2 float ulps; subnormals at the scale of the smallest normal
   * float.
   */
  public static double floatExp(double ref) {
    return 2 * FLOAT_UNIT * Math.max(Math.abs(ref), Float.MIN_NORMAL);
  }

  /**
   * Bound for a double sum of n float exponentials, each within 2 float ulps: the terms' error and
   * the sum's.
   */
  public static double sumOfFloatExps(int n, double ref) {
    return 2 * FLOAT_UNIT * Math.abs(ref) + sum(n, Math.abs(ref), DOUBLE_UNIT);
  }

  /**
   * Bound for {@link VectorOps#softmax}'s log-normaliser: the relative error of its sum of n float
   * exponentials is an absolute error of the logarithm, and m + log adds one rounding of the
   * result.
   */
  public static double logOfFloatExpSum(int n, double ref) {
    return 2 * FLOAT_UNIT + sum(n, 1, DOUBLE_UNIT) + DOUBLE_UNIT * Math.abs(ref);
  }

  /**
   * Bound for one of {@link VectorOps#softmax}'s probabilities: its exponential's 2 float ulps and
   * the reference's half ulp, as much again for the sum, and three roundings (a float inverse, the
   * product, the reference's); subnormals at the scale of the smallest normal.
   */
  public static double floatSoftmax(double ref) {
    return 7 * FLOAT_UNIT * Math.max(Math.abs(ref), Float.MIN_NORMAL);
  }

  /** Bound for a sum of n terms whose absolute values sum to magnitude, in the given unit. */
  public static double sum(int n, double magnitude, double unit) {
    return (n + 2) * unit * magnitude;
  }

  /** Bound for one element of y + a*x, rounded once or twice. */
  public static double update(double yOld, double ax, double unit) {
    return unit * (Math.abs(yOld) + Math.abs(ax));
  }

  /**
   * Bound for log-sum-exp of n terms: the sum's relative error becomes an absolute error in the
   * log.
   */
  public static double logSumExp(int n, double ref) {
    return (n + 4) * DOUBLE_UNIT + 2 * DOUBLE_UNIT * Math.abs(ref);
  }

  /**
   * Bound for a solution u of an implicit update: both sides solve to 1e-13 max(1, |u|), the
   * contract is 1e-12 max(1, |u|). The step a = W0(...e^-u) moves by |du| a / (1 + a), so its bound
   * is this times |a|.
   */
  public static double implicitUpdate(double uRef) {
    return 1e-12 * Math.max(1, Math.abs(uRef));
  }

  /**
   * As {@link #require}, for sums whose order is the backend's choice: where the reference
   * overflows (or meets +Inf and -Inf) the exact sum is out of reach, and the order decides between
   * +-Inf and NaN, so any non-finite result agrees with a non-finite reference.
   */
  public static void requireSum(
      String backend, String op, int index, double got, double ref, double bound) {
    if (!Double.isFinite(ref) && !Double.isFinite(got)) {
      return;
    }
    require(backend, op, index, got, ref, bound);
  }

  /**
   * Throws {@link KernelDisagreementException} naming the backend, kernel and element unless
   * within.
   */
  public static void require(
      String backend, String op, int index, double got, double ref, double bound) {
    if (!within(got, ref, bound)) {
      throw new KernelDisagreementException(
          "check mode: "
              + backend
              + " "
              + op
              + (index >= 0 ? " element " + index : "")
              + " = "
              + got
              + " but the scalar reference gives "
              + ref
              + " (allowed difference "
              + bound
              + ")");
    }
  }
}
