package org.largecat.simd;

import jdk.incubator.vector.VectorShape;
import org.largecat.kernel.BackendUnavailableException;
import org.largecat.kernel.KernelFamilies;

/** Creates the Vector API families once the module is known to be present. */
final class SimdKernels {
  private SimdKernels() {}

  static KernelFamilies create() {
    int preferred = VectorShape.preferredShape().vectorBitSize();
    if (preferred < 128) {
      throw new BackendUnavailableException("this CPU offers " + preferred + "-bit vectors to the JVM",
          "use the scalar or native backend; the Vector API needs at least 128-bit vectors to pay off");
    }
    try {
      SimdWidth.bits(); // initialises the species; a bad largecat.simd.maxBits fails here
    } catch (ExceptionInInitializerError e) {
      throw new BackendUnavailableException(e.getCause().getMessage(),
          "set -D" + SimdWidth.MAX_BITS_PROPERTY + " to 128, 256 or 512, or leave it unset");
    }
    return new KernelFamilies(new SimdVectorOps(), new SimdSpecialFunctions(), new SimdImplicitUpdates(), null,
        describe());
  }

  /** What this backend runs with, e.g. "512-bit vectors (16 floats, 8 doubles)". */
  static String describe() {
    return SimdWidth.bits() + "-bit vectors (" + SimdWidth.FLOATS.length() + " floats, "
        + SimdWidth.DOUBLES.length() + " doubles)";
  }
}
