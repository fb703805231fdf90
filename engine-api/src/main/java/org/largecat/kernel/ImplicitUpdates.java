package org.largecat.kernel;

/**
 * Batched implicit (proximal) updates: many independent small problems per call, so a backend can
 * solve them in lock-step across vector lanes.
 */
public abstract class ImplicitUpdates {

  /**
   * Solves n independent Implicit SGD steps of the double-sum softmax for one datapoint and one
   * sampled class (Fagan and Iyengar, App. F.1). Problem i has z = x.(w_k - w_y) in z, the old u_i
   * in uOld and ||x||^2 in xNorm2; it writes the new u_i to uNew and the step a = W0(2 eta N (K-1)
   * ||x||^2 exp(z - u)) to step, after which the caller moves w_y += a x / (2 ||x||^2) and w_k -= a
   * x / (2 ||x||^2) (with ||x||^2 = 0 the step is 0 and the weights stay). The new u solves 2 eta N
   * (1 - exp(-u)) - a(u) / ||x||^2 + 2 (u - u_old) = 0 to within 1e-12 max(1, |u|). NaN or +-Inf in
   * z or uOld gives NaN in both outputs.
   *
   * @param eta the learning rate, finite and positive
   * @param datasetSize N, the number of datapoints, at least 1
   * @param classCount K, the number of classes, at least 2
   */
  public final void softmaxSingleClass(
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
    String op = "softmaxSingleClass";
    Checks.count(op, "n", n);
    Checks.span(op, "z", z, zOff, n);
    Checks.span(op, "uOld", uOld, uOldOff, n);
    Checks.span(op, "xNorm2", xNorm2, xNorm2Off, n);
    Checks.span(op, "uNew", uNew, uNewOff, n);
    Checks.span(op, "step", step, stepOff, n);
    Checks.finitePositive(op, "eta", eta);
    Checks.positive(op, "datasetSize", datasetSize);
    if (classCount < 2) {
      throw new IllegalArgumentException(
          op + ": classCount = " + classCount + " must be at least 2");
    }
    for (int i = 0; i < n; i++) {
      double v = xNorm2[xNorm2Off + i];
      if (!(v >= 0) || v == Double.POSITIVE_INFINITY) {
        throw new IllegalArgumentException(
            op
                + ": xNorm2["
                + (xNorm2Off + i)
                + "] = "
                + v
                + " is not a squared norm (finite and >= 0)");
      }
    }
    softmaxSingleClassKernel(
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
  }

  protected abstract void softmaxSingleClassKernel(
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
      int stepOff);
}
