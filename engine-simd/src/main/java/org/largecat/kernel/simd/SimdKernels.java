package org.largecat.kernel.simd;

import jdk.incubator.vector.VectorShape;
import org.largecat.kernel.BackendUnavailableException;
import org.largecat.kernel.KernelFamilies;

/** Creates the Vector API families once the module is known to be present. */
final class SimdKernels {
  /**
   * Offers the masked families at two double lanes on x86 too: for the tests, which cross-validate
   * the code that 128-bit vectors run where C2 compiles such masks (aarch64's NEON).
   */
  static final String TWO_LANE_MASKS_PROPERTY = "largecat.simd.twoLaneMasks";

  private SimdKernels() {}

  static KernelFamilies create() {
    int preferred = VectorShape.preferredShape().vectorBitSize();
    if (preferred < 128) {
      throw new BackendUnavailableException(
          "this CPU offers " + preferred + "-bit vectors to the JVM",
          "use the scalar or native backend; the Vector API needs at least 128-bit vectors to pay off");
    }
    try {
      SimdWidth.bits(); // initialises the species; a bad largecat.simd.maxBits fails here
    } catch (ExceptionInInitializerError e) {
      throw new BackendUnavailableException(
          e.getCause().getMessage(),
          "set -D" + SimdWidth.MAX_BITS_PROPERTY + " to 128, 256 or 512, or leave it unset");
    }
    boolean masked =
        maskedFamiliesPay(
            SimdWidth.DOUBLES.length(),
            System.getProperty("os.arch"),
            Boolean.getBoolean(TWO_LANE_MASKS_PROPERTY));
    return new KernelFamilies(
        new SimdVectorOps(),
        masked ? new SimdSpecialFunctions() : null,
        masked ? new SimdImplicitUpdates() : null,
        new SimdMatrixOps(),
        describe(masked));
  }

  /**
   * Whether the special functions and implicit updates, which blend lanes by masks throughout, are
   * worth offering. C2 on x86 (JDK 25) compiles no masks of 2-lane double vectors, so with 128-bit
   * vectors there they would run the Vector API's Java fallback, several times slower than the
   * scalar reference; those families are then left to the next backend (native's SSE2 build, or
   * scalar).
   */
  static boolean maskedFamiliesPay(int doubleLanes, String arch, boolean forced) {
    boolean x86 = "amd64".equals(arch) || "x86_64".equals(arch);
    return doubleLanes > 2 || !x86 || forced;
  }

  /** What this backend runs with, e.g. "512-bit vectors (16 floats, 8 doubles)". */
  static String describe(boolean masked) {
    return SimdWidth.bits()
        + "-bit vectors ("
        + SimdWidth.FLOATS.length()
        + " floats, "
        + SimdWidth.DOUBLES.length()
        + " doubles)"
        + (masked
            ? ""
            : "; special functions and implicit updates left "
                + "to other backends: C2 on x86 compiles no 2-lane double masks, so they would run slower than scalar "
                + "(-D"
                + TWO_LANE_MASKS_PROPERTY
                + "=true offers them anyway)");
  }
}
