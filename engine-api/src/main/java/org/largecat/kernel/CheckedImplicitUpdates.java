package org.largecat.kernel;

/** Check mode for implicit updates: every problem is solved again by the reference and compared. */
final class CheckedImplicitUpdates extends ImplicitUpdates {
  private final ImplicitUpdates tested;
  private final ImplicitUpdates reference;
  private final String name;

  CheckedImplicitUpdates(ImplicitUpdates tested, ImplicitUpdates reference, String name) {
    this.tested = tested;
    this.reference = reference;
    this.name = name;
  }

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
    double[] expectedU = new double[n]; // computed first: outputs may alias inputs
    double[] expectedStep = new double[n];
    reference.softmaxSingleClassKernel(
        n,
        z,
        zOff,
        uOld,
        uOldOff,
        xNorm2,
        xNorm2Off,
        eta,
        datasetSize,
        classCount,
        expectedU,
        0,
        expectedStep,
        0);
    tested.softmaxSingleClassKernel(
        n,
        z,
        zOff,
        uOld,
        uOldOff,
        xNorm2,
        xNorm2Off,
        eta,
        datasetSize,
        classCount,
        uNew,
        uNewOff,
        step,
        stepOff);
    for (int i = 0; i < n; i++) {
      double bound = Agreement.implicitUpdate(expectedU[i]);
      Agreement.require(name, "softmaxSingleClass u", i, uNew[uNewOff + i], expectedU[i], bound);
      Agreement.require(
          name,
          "softmaxSingleClass step",
          i,
          step[stepOff + i],
          expectedStep[i],
          bound * Math.abs(expectedStep[i]));
    }
  }
}
