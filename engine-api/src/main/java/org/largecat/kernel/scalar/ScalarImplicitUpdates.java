package org.largecat.kernel.scalar;

import org.largecat.kernel.ImplicitUpdates;

/** Reference implicit updates: each problem solved in turn by {@link SingleClassImplicitStep}. */
public class ScalarImplicitUpdates extends ImplicitUpdates {

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
    SingleClassImplicitStep.Coefficients c =
        SingleClassImplicitStep.Coefficients.of(eta, datasetSize, classCount);
    for (int i = 0; i < n; i++) {
      double zi = z[zOff + i]; // read before writing: the outputs may alias the inputs
      double xi = xNorm2[xNorm2Off + i];
      double u = SingleClassImplicitStep.newU(c, zi, uOld[uOldOff + i], xi);
      uNew[uNewOff + i] = u;
      step[stepOff + i] = SingleClassImplicitStep.step(c, zi, u, xi);
    }
  }
}
