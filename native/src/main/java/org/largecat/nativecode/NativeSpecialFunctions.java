package org.largecat.nativecode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.scalar.ScalarSpecialFunctions;

/**
 * Special functions in C (liblargecat, kernels/special_functions.c), vectorised: exp, log-sigmoid,
 * log Phi, phi/Phi, the truncated-normal moments, Lambert W0 and W0(e^x); the other functions are
 * the scalar reference's. The C kernel of a function is named after its constant, e.g.
 * NORMAL_LOG_CDF calls largecat_normal_log_cdf_ISA.
 */
final class NativeSpecialFunctions extends ScalarSpecialFunctions {
  private static final FunctionDescriptor ELEMENTWISE = FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT);
  private static final Map<ElementwiseFunction, MethodHandle> KERNELS = bind(EnumSet.of(
      ElementwiseFunction.EXP,
      ElementwiseFunction.LOG_SIGMOID,
      ElementwiseFunction.NORMAL_LOG_CDF,
      ElementwiseFunction.NORMAL_MILLS_RATIO,
      ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE,
      ElementwiseFunction.TRUNCATED_NORMAL_MEAN_NEGATIVE,
      ElementwiseFunction.TRUNCATED_NORMAL_VARIANCE_POSITIVE,
      ElementwiseFunction.TRUNCATED_NORMAL_VARIANCE_NEGATIVE,
      ElementwiseFunction.TRUNCATED_NORMAL_ENTROPY_POSITIVE,
      ElementwiseFunction.TRUNCATED_NORMAL_ENTROPY_NEGATIVE,
      ElementwiseFunction.LAMBERT_W0,
      ElementwiseFunction.WRIGHT_OMEGA));

  private static Map<ElementwiseFunction, MethodHandle> bind(EnumSet<ElementwiseFunction> functions) {
    Map<ElementwiseFunction, MethodHandle> kernels = new EnumMap<>(ElementwiseFunction.class);
    for (ElementwiseFunction f : functions) {
      kernels.put(f, NativeLibrary.kernel(f.name().toLowerCase(Locale.ROOT), ELEMENTWISE));
    }
    return kernels;
  }

  @Override
  protected void applyKernel(ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff) {
    MethodHandle kernel = KERNELS.get(f);
    if (kernel == null) {
      super.applyKernel(f, n, x, xOff, out, outOff);
      return;
    }
    try {
      kernel.invokeExact(n, MemorySegment.ofArray(x), xOff, MemorySegment.ofArray(out), outOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }
}
