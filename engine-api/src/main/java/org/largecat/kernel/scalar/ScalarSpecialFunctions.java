package org.largecat.kernel.scalar;

import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.SpecialFunctions;

/** Reference special functions: each element through the function's scalar reference. */
public class ScalarSpecialFunctions extends SpecialFunctions {

  @Override
  protected void applyKernel(
      ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff) {
    for (int i = 0; i < n; i++) {
      out[outOff + i] = f.reference(x[xOff + i]);
    }
  }
}
