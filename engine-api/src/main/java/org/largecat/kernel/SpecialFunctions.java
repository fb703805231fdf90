package org.largecat.kernel;

/**
 * Elementwise special functions over double arrays: out[outOff + i] = f(x[xOff + i]) for i < n.
 * {@code out} may be {@code x} itself (same offset) for an in-place update. NaN maps to NaN; the
 * accuracy every backend must reach is stated on each {@link ElementwiseFunction}.
 */
public abstract class SpecialFunctions {

  /** Applies {@code f} to n elements of x, writing n elements of out. */
  public final void apply(ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff) {
    Checks.notNull("apply", "f", f);
    String op = f.label();
    Checks.count(op, "n", n);
    Checks.span(op, "x", x, xOff, n);
    Checks.span(op, "out", out, outOff, n);
    applyKernel(f, n, x, xOff, out, outOff);
  }

  protected abstract void applyKernel(ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff);
}
