package org.largecat.kernel;

/** Check mode for special functions: every element is recomputed by the reference and compared. */
final class CheckedSpecialFunctions extends SpecialFunctions {
  private final SpecialFunctions tested;
  private final SpecialFunctions reference;
  private final String name;

  CheckedSpecialFunctions(SpecialFunctions tested, SpecialFunctions reference, String name) {
    this.tested = tested;
    this.reference = reference;
    this.name = name;
  }

  @Override
  protected void applyKernel(
      ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff) {
    double[] expected = new double[n]; // computed first: out may be x
    reference.applyKernel(f, n, x, xOff, expected, 0);
    tested.applyKernel(f, n, x, xOff, out, outOff);
    for (int i = 0; i < n; i++) {
      Agreement.require(
          name, f.label(), i, out[outOff + i], expected[i], Agreement.elementwise(f, expected[i]));
    }
  }

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
    double[] expectedF = new double[n]; // computed first: gOut may be x
    double[] expectedG = new double[n];
    reference.applyKernel(f, n, x, xOff, expectedF, 0);
    reference.applyKernel(g, n, x, xOff, expectedG, 0);
    tested.applyPairKernel(f, g, n, x, xOff, fOut, fOutOff, gOut, gOutOff);
    for (int i = 0; i < n; i++) {
      Agreement.require(
          name,
          f.label(),
          i,
          fOut[fOutOff + i],
          expectedF[i],
          Agreement.elementwise(f, expectedF[i]));
      Agreement.require(
          name,
          g.label(),
          i,
          gOut[gOutOff + i],
          expectedG[i],
          Agreement.elementwise(g, expectedG[i]));
    }
  }

  @Override
  protected double sumAndApplyKernel(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] x,
      int xOff,
      double[] gOut,
      int gOutOff) {
    double[] expectedF = new double[n]; // computed first: gOut may be x
    double[] expectedG = new double[g == null ? 0 : n];
    reference.applyKernel(f, n, x, xOff, expectedF, 0);
    if (g != null) {
      reference.applyKernel(g, n, x, xOff, expectedG, 0);
    }
    double sum = tested.sumAndApplyKernel(f, g, n, x, xOff, gOut, gOutOff);
    double expected = 0;
    double magnitude = 0;
    for (int i = 0; i < n; i++) {
      expected += expectedF[i];
      magnitude += Math.abs(expectedF[i]);
      if (g != null) {
        Agreement.require(
            name,
            g.label(),
            i,
            gOut[gOutOff + i],
            expectedG[i],
            Agreement.elementwise(g, expectedG[i]));
      }
    }
    Agreement.require(
        name,
        "sum of " + f.label() + " over " + n + " elements",
        -1,
        sum,
        expected,
        Agreement.sumOfElementwise(f, n, magnitude));
    return sum;
  }
}
