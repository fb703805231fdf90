package org.largecat.kernel.nativecode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.largecat.kernel.ImplicitUpdates;
import org.largecat.kernel.scalar.SingleClassImplicitStep;

/**
 * Implicit SGD updates in C (liblargecat, kernels/implicit_updates.c), a port of {@link
 * SingleClassImplicitStep} solving a vector's worth of problems in lock-step.
 */
final class NativeImplicitUpdates extends ImplicitUpdates {
  private static final MethodHandle SOFTMAX_SINGLE_CLASS =
      NativeLibrary.kernel(
          "softmax_single_class",
          FunctionDescriptor.of(
              JAVA_INT,
              JAVA_INT,
              ADDRESS,
              JAVA_INT,
              ADDRESS,
              JAVA_INT,
              ADDRESS,
              JAVA_INT,
              JAVA_DOUBLE,
              JAVA_LONG,
              JAVA_LONG,
              ADDRESS,
              JAVA_INT,
              ADDRESS,
              JAVA_INT));

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
    int failed;
    try {
      failed =
          (int)
              SOFTMAX_SINGLE_CLASS.invokeExact(
                  n,
                  MemorySegment.ofArray(z),
                  zOff,
                  MemorySegment.ofArray(uOld),
                  uOldOff,
                  MemorySegment.ofArray(xNorm2),
                  xNorm2Off,
                  eta,
                  datasetSize,
                  classCount,
                  MemorySegment.ofArray(uNew),
                  uNewOff,
                  MemorySegment.ofArray(step),
                  stepOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
    if (failed != 0) {
      throw new IllegalStateException(
          "native softmaxSingleClass did not converge within its bound on evaluations"
              + " for the problems solved together from index "
              + (failed - 1)
              + " (eta = "
              + eta
              + ", N = "
              + datasetSize
              + ", K = "
              + classCount
              + "): a bug; the scalar backend solves them");
    }
  }
}
