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
  protected void applyKernel(ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff) {
    double[] expected = new double[n]; // computed first: out may be x
    reference.applyKernel(f, n, x, xOff, expected, 0);
    tested.applyKernel(f, n, x, xOff, out, outOff);
    for (int i = 0; i < n; i++) {
      Agreement.require(name, f.label(), i, out[outOff + i], expected[i], Agreement.elementwise(f, expected[i]));
    }
  }
}
