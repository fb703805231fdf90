package org.largecat.kernel.nativecode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.scalar.ScalarSpecialFunctions;

/**
 * Special functions in C (liblargecat, kernels/special_functions.c), vectorised: exp, log1p,
 * softplus, log-sigmoid and the logistic log-survival, the Gumbel log-cdf, log Phi and log(1 -
 * Phi), phi/Phi, the truncated-normal moments, the Polya-Gamma mean, Lambert W0 and W0(e^x); the
 * logistic and Gumbel log-densities are the scalar reference's. The probit CAVI's pair, log Phi
 * with the positive truncated-normal mean, shares one pass and one tail evaluation in applyPair and
 * sumAndApply, which sums log Phi in C too. Each kernel is a constant of its own, so that the JIT
 * inlines the call and allocates nothing for the array arguments.
 */
final class NativeSpecialFunctions extends ScalarSpecialFunctions {
  private static final MethodHandle EXP = kernel("exp");
  private static final MethodHandle LOG1P = kernel("log1p");
  private static final MethodHandle SOFTPLUS = kernel("softplus");
  private static final MethodHandle LOG_SIGMOID = kernel("log_sigmoid");
  private static final MethodHandle LOGISTIC_LOG_SURVIVAL = kernel("logistic_log_survival");
  private static final MethodHandle GUMBEL_LOG_CDF = kernel("gumbel_log_cdf");
  private static final MethodHandle NORMAL_LOG_SURVIVAL = kernel("normal_log_survival");
  private static final MethodHandle POLYA_GAMMA_MEAN = kernel("polya_gamma_mean");
  private static final MethodHandle NORMAL_LOG_CDF = kernel("normal_log_cdf");
  private static final MethodHandle NORMAL_MILLS_RATIO = kernel("normal_mills_ratio");
  private static final MethodHandle MEAN_POSITIVE = kernel("truncated_normal_mean_positive");
  private static final MethodHandle MEAN_NEGATIVE = kernel("truncated_normal_mean_negative");
  private static final MethodHandle VARIANCE_POSITIVE =
      kernel("truncated_normal_variance_positive");
  private static final MethodHandle VARIANCE_NEGATIVE =
      kernel("truncated_normal_variance_negative");
  private static final MethodHandle ENTROPY_POSITIVE = kernel("truncated_normal_entropy_positive");
  private static final MethodHandle ENTROPY_NEGATIVE = kernel("truncated_normal_entropy_negative");
  private static final MethodHandle LAMBERT_W0 = kernel("lambert_w0");
  private static final MethodHandle WRIGHT_OMEGA = kernel("wright_omega");

  private static final MethodHandle LOG_CDF_AND_MEAN =
      NativeLibrary.kernel(
          "normal_log_cdf_and_mean_positive",
          FunctionDescriptor.ofVoid(
              JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
  private static final MethodHandle SUM_LOG_CDF_AND_MEAN =
      NativeLibrary.kernel(
          "sum_normal_log_cdf_and_mean_positive",
          FunctionDescriptor.of(JAVA_DOUBLE, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
  private static final MethodHandle SUM_LOG_CDF =
      NativeLibrary.kernel(
          "sum_normal_log_cdf", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_INT, ADDRESS, JAVA_INT));

  private static MethodHandle kernel(String name) {
    return NativeLibrary.kernel(
        name, FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
  }

  @Override
  protected void applyKernel(
      ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff) {
    switch (f) {
      case EXP -> apply(EXP, n, x, xOff, out, outOff);
      case LOG1P -> apply(LOG1P, n, x, xOff, out, outOff);
      case SOFTPLUS -> apply(SOFTPLUS, n, x, xOff, out, outOff);
      case LOG_SIGMOID -> apply(LOG_SIGMOID, n, x, xOff, out, outOff);
      case LOGISTIC_LOG_SURVIVAL -> apply(LOGISTIC_LOG_SURVIVAL, n, x, xOff, out, outOff);
      case GUMBEL_LOG_CDF -> apply(GUMBEL_LOG_CDF, n, x, xOff, out, outOff);
      case NORMAL_LOG_SURVIVAL -> apply(NORMAL_LOG_SURVIVAL, n, x, xOff, out, outOff);
      case POLYA_GAMMA_MEAN -> apply(POLYA_GAMMA_MEAN, n, x, xOff, out, outOff);
      case NORMAL_LOG_CDF -> apply(NORMAL_LOG_CDF, n, x, xOff, out, outOff);
      case NORMAL_MILLS_RATIO -> apply(NORMAL_MILLS_RATIO, n, x, xOff, out, outOff);
      case TRUNCATED_NORMAL_MEAN_POSITIVE -> apply(MEAN_POSITIVE, n, x, xOff, out, outOff);
      case TRUNCATED_NORMAL_MEAN_NEGATIVE -> apply(MEAN_NEGATIVE, n, x, xOff, out, outOff);
      case TRUNCATED_NORMAL_VARIANCE_POSITIVE -> apply(VARIANCE_POSITIVE, n, x, xOff, out, outOff);
      case TRUNCATED_NORMAL_VARIANCE_NEGATIVE -> apply(VARIANCE_NEGATIVE, n, x, xOff, out, outOff);
      case TRUNCATED_NORMAL_ENTROPY_POSITIVE -> apply(ENTROPY_POSITIVE, n, x, xOff, out, outOff);
      case TRUNCATED_NORMAL_ENTROPY_NEGATIVE -> apply(ENTROPY_NEGATIVE, n, x, xOff, out, outOff);
      case LAMBERT_W0 -> apply(LAMBERT_W0, n, x, xOff, out, outOff);
      case WRIGHT_OMEGA -> apply(WRIGHT_OMEGA, n, x, xOff, out, outOff);
      default -> super.applyKernel(f, n, x, xOff, out, outOff);
    }
  }

  @Override
  protected void applyPairKernel(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] x,
      int xOff,
      double[] fOut,
      int fOutOff,
      double[] gOut,
      int gOutOff) {
    if (f != ElementwiseFunction.NORMAL_LOG_CDF
        || g != ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE) {
      super.applyPairKernel(f, g, n, x, xOff, fOut, fOutOff, gOut, gOutOff);
      return;
    }
    try {
      LOG_CDF_AND_MEAN.invokeExact(
          n,
          MemorySegment.ofArray(x),
          xOff,
          MemorySegment.ofArray(fOut),
          fOutOff,
          MemorySegment.ofArray(gOut),
          gOutOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected double sumAndApplyKernel(
      ElementwiseFunction f,
      ElementwiseFunction g,
      int n,
      double[] x,
      int xOff,
      double[] gOut,
      int gOutOff) {
    if (f != ElementwiseFunction.NORMAL_LOG_CDF
        || (g != null && g != ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE)) {
      return super.sumAndApplyKernel(f, g, n, x, xOff, gOut, gOutOff);
    }
    try {
      return g == null
          ? (double) SUM_LOG_CDF.invokeExact(n, MemorySegment.ofArray(x), xOff)
          : (double)
              SUM_LOG_CDF_AND_MEAN.invokeExact(
                  n, MemorySegment.ofArray(x), xOff, MemorySegment.ofArray(gOut), gOutOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  private static void apply(
      MethodHandle kernel, int n, double[] x, int xOff, double[] out, int outOff) {
    try {
      kernel.invokeExact(n, MemorySegment.ofArray(x), xOff, MemorySegment.ofArray(out), outOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }
}
