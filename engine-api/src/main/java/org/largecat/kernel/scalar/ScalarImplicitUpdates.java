package org.largecat.kernel.scalar;

import org.largecat.kernel.ImplicitUpdates;

/** Placeholder while the reference is written. */
public class ScalarImplicitUpdates extends ImplicitUpdates {
  @Override
  protected void softmaxSingleClassKernel(int n, double[] z, int zOff, double[] uOld, int uOldOff,
      double[] xNorm2, int xNorm2Off, double eta, long datasetSize, long classCount,
      double[] uNew, int uNewOff, double[] step, int stepOff) {
    throw new IllegalStateException("placeholder");
  }
}
