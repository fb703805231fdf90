package org.largecat.kernel;

/**
 * Elementwise special functions over double arrays: out[outOff + i] = f(x[xOff + i]) for i < n.
 * {@code out} may be {@code x} itself (same offset) for an in-place update. NaN maps to NaN; the
 * accuracy every backend must reach is stated on each {@link ElementwiseFunction}.
 */
public abstract class SpecialFunctions {
  /** The block of f's values {@link #sumAndApplyKernel} sums, per thread. */
  private static final ThreadLocal<double[]> SUM_SCRATCH =
      ThreadLocal.withInitial(() -> new double[1024]);

  /** Applies {@code f} to n elements of x, writing n elements of out. */
  public final void apply(
      ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff) {
    Checks.notNull("apply", "f", f);
    String op = f.label();
    Checks.count(op, "n", n);
    Checks.span(op, "x", x, xOff, n);
    Checks.span(op, "out", out, outOff, n);
    inPlaceOrApart(op, "out", out, outOff, x, xOff, n);
    applyKernel(f, n, x, xOff, out, outOff);
  }

  /**
   * Applies f and g to the same n elements of x, writing f's values to fOut and g's to gOut: the
   * values of {@code apply(f, ...)} and {@code apply(g, ...)}, held to the same bounds, in one pass
   * where a backend shares work between the two (log Phi and the truncated-normal mean of the
   * probit CAVI share e^{-x^2/2} and the tail fit A2). gOut may be x itself (same offset) for an
   * in-place update; fOut may overlap neither x nor gOut.
   */
  public final void applyPair(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] x,
      int xOff,
      double[] fOut,
      int fOutOff,
      double[] gOut,
      int gOutOff) {
    String op = "applyPair";
    Checks.notNull(op, "f", f);
    Checks.notNull(op, "g", g);
    Checks.count(op, "n", n);
    Checks.span(op, "x", x, xOff, n);
    Checks.span(op, "fOut", fOut, fOutOff, n);
    Checks.span(op, "gOut", gOut, gOutOff, n);
    if (overlap(fOut, fOutOff, x, xOff, n) || overlap(fOut, fOutOff, gOut, gOutOff, n)) {
      throw new IllegalArgumentException(
          "applyPair: fOut overlaps "
              + (overlap(fOut, fOutOff, x, xOff, n) ? "x" : "gOut")
              + " (only gOut may be x)");
    }
    inPlaceOrApart(op, "gOut", gOut, gOutOff, x, xOff, n);
    applyPairKernel(f, g, n, x, xOff, fOut, fOutOff, gOut, gOutOff);
  }

  /**
   * Returns the sum of f over n elements of x and, unless g is null, writes g's values to gOut
   * (which may be x itself, same offset): what {@code applyPair} (or {@code apply}) followed by a
   * sum of f's values gives, in one pass and with no array for f's values. A backend may sum in its
   * own order and form (the simd log Phi multiplies the right tail's 1 - Phi rather than adding
   * their logarithms), so the sum is held to ten times f's relative tolerance of the sum of |f|,
   * plus the rounding of a sum of n terms ({@link Agreement#sumOfElementwise}).
   */
  public final double sumAndApply(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] x,
      int xOff,
      double[] gOut,
      int gOutOff) {
    String op = "sumAndApply";
    Checks.notNull(op, "f", f);
    Checks.count(op, "n", n);
    Checks.span(op, "x", x, xOff, n);
    if (g != null) {
      Checks.span(op, "gOut", gOut, gOutOff, n);
      inPlaceOrApart(op, "gOut", gOut, gOutOff, x, xOff, n);
    }
    return sumAndApplyKernel(f, g, n, x, xOff, gOut, gOutOff);
  }

  /**
   * f's values a block at a time into a scratch array, then summed; g as applyPairKernel writes it.
   */
  protected double sumAndApplyKernel(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] x,
      int xOff,
      double[] gOut,
      int gOutOff) {
    double[] values = SUM_SCRATCH.get();
    double sum = 0;
    for (int b = 0; b < n; b += values.length) {
      int m = Math.min(values.length, n - b);
      if (g == null) {
        applyKernel(f, m, x, xOff + b, values, 0);
      } else {
        applyPairKernel(f, g, m, x, xOff + b, values, 0, gOut, gOutOff + b);
      }
      sum += Summation.sum(m, values);
    }
    return sum;
  }

  /**
   * f then g, the second possibly in place; backends that share work between f and g override it.
   */
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
    applyKernel(f, n, x, xOff, fOut, fOutOff);
    applyKernel(g, n, x, xOff, gOut, gOutOff);
  }

  /**
   * An output may be x itself at x's offset (in place) or lie apart from it; shifted against x, it
   * would overwrite elements before they are read, differently in each backend.
   */
  private static void inPlaceOrApart(
      String op, String name, double[] out, int outOff, double[] x, int xOff, int n) {
    if (outOff != xOff && overlap(out, outOff, x, xOff, n)) {
      throw new IllegalArgumentException(
          op
              + ": "
              + name
              + " from offset "
              + outOff
              + " overlaps x from offset "
              + xOff
              + " (an output may be x only at the same offset)");
    }
  }

  private static boolean overlap(double[] a, int aOff, double[] b, int bOff, int n) {
    return a == b && n > 0 && aOff < bOff + n && bOff < aOff + n;
  }

  protected abstract void applyKernel(
      ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff);
}
