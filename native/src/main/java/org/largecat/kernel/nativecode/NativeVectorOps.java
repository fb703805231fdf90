package org.largecat.kernel.nativecode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.largecat.kernel.scalar.ScalarVectorOps;

/**
 * Vector kernels in C (liblargecat, kernels/vector_ops.c): the float dot product and axpy,
 * gather-dot and scatter-axpy with dense and sparse x, gather-axpy, the maximum, the sum of exp
 * over doubles and over floats, log-sum-exp, the float exponential, the float softmax and the step
 * of a set of rows; the other kernels are the scalar reference's. Arrays are passed in place with
 * their offsets.
 */
final class NativeVectorOps extends ScalarVectorOps {
  private static final MethodHandle DOT_FLOAT =
      NativeLibrary.kernel(
          "dot_float",
          FunctionDescriptor.of(JAVA_DOUBLE, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
  private static final MethodHandle AXPY_FLOAT =
      NativeLibrary.kernel(
          "axpy_float",
          FunctionDescriptor.ofVoid(JAVA_INT, JAVA_FLOAT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
  private static final MethodHandle GATHER_DOT =
      NativeLibrary.kernel(
          "gather_dot",
          FunctionDescriptor.ofVoid(
              ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
              JAVA_INT));
  private static final MethodHandle GATHER_DOT_SPARSE =
      NativeLibrary.kernel(
          "gather_dot_sparse",
          FunctionDescriptor.ofVoid(
              ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT,
              ADDRESS, JAVA_INT));
  private static final MethodHandle SCATTER_AXPY =
      NativeLibrary.kernel(
          "scatter_axpy",
          FunctionDescriptor.ofVoid(
              ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
              JAVA_INT));
  private static final MethodHandle GATHER_AXPY =
      NativeLibrary.kernel(
          "gather_axpy",
          FunctionDescriptor.ofVoid(
              ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
              JAVA_INT));
  private static final MethodHandle ROW_STEP =
      NativeLibrary.kernel(
          "row_step",
          FunctionDescriptor.ofVoid(
              ADDRESS,
              ADDRESS,
              JAVA_INT,
              ADDRESS,
              JAVA_INT,
              JAVA_INT,
              ADDRESS,
              JAVA_INT,
              ADDRESS,
              ADDRESS,
              JAVA_INT,
              JAVA_FLOAT,
              JAVA_FLOAT,
              JAVA_FLOAT));
  private static final MethodHandle SCATTER_AXPY_SPARSE =
      NativeLibrary.kernel(
          "scatter_axpy_sparse",
          FunctionDescriptor.ofVoid(
              ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
              JAVA_INT, JAVA_INT));
  private static final MethodHandle MAX =
      NativeLibrary.kernel("max", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_INT, ADDRESS, JAVA_INT));
  private static final MethodHandle SUM_EXP =
      NativeLibrary.kernel(
          "sum_exp", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_INT, ADDRESS, JAVA_INT, JAVA_DOUBLE));
  private static final MethodHandle LOG_SUM_EXP =
      NativeLibrary.kernel(
          "log_sum_exp", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_INT, ADDRESS, JAVA_INT));
  private static final MethodHandle SUM_EXP_FLOAT =
      NativeLibrary.kernel(
          "sum_exp_float",
          FunctionDescriptor.of(JAVA_DOUBLE, JAVA_INT, ADDRESS, JAVA_INT, JAVA_FLOAT));
  private static final MethodHandle EXP_FLOAT =
      NativeLibrary.kernel(
          "exp_float", FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
  private static final MethodHandle SOFTMAX_FLOAT =
      NativeLibrary.kernel(
          "softmax_float", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_INT, ADDRESS, JAVA_INT));

  @Override
  protected double dotKernel(int n, float[] x, int xOff, float[] y, int yOff) {
    try {
      return (double)
          DOT_FLOAT.invokeExact(n, MemorySegment.ofArray(x), xOff, MemorySegment.ofArray(y), yOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected void axpyKernel(int n, float a, float[] x, int xOff, float[] y, int yOff) {
    try {
      AXPY_FLOAT.invokeExact(n, a, MemorySegment.ofArray(x), xOff, MemorySegment.ofArray(y), yOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected void gatherDotKernel(
      float[] w,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] x,
      int xOff,
      double[] out,
      int outOff) {
    try {
      GATHER_DOT.invokeExact(
          MemorySegment.ofArray(w),
          d,
          MemorySegment.ofArray(rows),
          rowsOff,
          count,
          MemorySegment.ofArray(x),
          xOff,
          MemorySegment.ofArray(out),
          outOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected void gatherDotSparseKernel(
      float[] w,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      int[] indices,
      float[] values,
      int nzOff,
      int nnz,
      double[] out,
      int outOff) {
    try {
      GATHER_DOT_SPARSE.invokeExact(
          MemorySegment.ofArray(w),
          d,
          MemorySegment.ofArray(rows),
          rowsOff,
          count,
          MemorySegment.ofArray(indices),
          MemorySegment.ofArray(values),
          nzOff,
          nnz,
          MemorySegment.ofArray(out),
          outOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected void scatterAxpyKernel(
      float[] w,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] coef,
      int coefOff,
      float[] x,
      int xOff) {
    try {
      SCATTER_AXPY.invokeExact(
          MemorySegment.ofArray(w),
          d,
          MemorySegment.ofArray(rows),
          rowsOff,
          count,
          MemorySegment.ofArray(coef),
          coefOff,
          MemorySegment.ofArray(x),
          xOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected void gatherAxpyKernel(
      float[] w,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] coef,
      int coefOff,
      float[] y,
      int yOff) {
    try {
      GATHER_AXPY.invokeExact(
          MemorySegment.ofArray(w),
          d,
          MemorySegment.ofArray(rows),
          rowsOff,
          count,
          MemorySegment.ofArray(coef),
          coefOff,
          MemorySegment.ofArray(y),
          yOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected void rowStepKernel(
      float[] w,
      float[] s,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] g,
      int gOff,
      float[] fresh,
      float[] keep,
      int weightsOff,
      float rate,
      float scale,
      float precision) {
    try {
      ROW_STEP.invokeExact(
          MemorySegment.ofArray(w),
          orNull(s),
          d,
          MemorySegment.ofArray(rows),
          rowsOff,
          count,
          MemorySegment.ofArray(g),
          gOff,
          orNull(fresh),
          orNull(keep),
          weightsOff,
          rate,
          scale,
          precision);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  /** An optional array argument: C's NULL when absent. */
  private static MemorySegment orNull(float[] a) {
    return a == null ? MemorySegment.NULL : MemorySegment.ofArray(a);
  }

  @Override
  protected void scatterAxpySparseKernel(
      float[] w,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] coef,
      int coefOff,
      int[] indices,
      float[] values,
      int nzOff,
      int nnz) {
    try {
      SCATTER_AXPY_SPARSE.invokeExact(
          MemorySegment.ofArray(w),
          d,
          MemorySegment.ofArray(rows),
          rowsOff,
          count,
          MemorySegment.ofArray(coef),
          coefOff,
          MemorySegment.ofArray(indices),
          MemorySegment.ofArray(values),
          nzOff,
          nnz);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected double maxKernel(int n, double[] v, int vOff) {
    try {
      return (double) MAX.invokeExact(n, MemorySegment.ofArray(v), vOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected double logSumExpKernel(int n, double[] v, int vOff) {
    try {
      return (double) LOG_SUM_EXP.invokeExact(n, MemorySegment.ofArray(v), vOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected double sumExpKernel(int n, double[] v, int vOff, double shift) {
    try {
      return (double) SUM_EXP.invokeExact(n, MemorySegment.ofArray(v), vOff, shift);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected double sumExpKernel(int n, float[] v, int vOff, float shift) {
    try {
      return (double) SUM_EXP_FLOAT.invokeExact(n, MemorySegment.ofArray(v), vOff, shift);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected void expKernel(int n, float[] x, int xOff, float[] out, int outOff) {
    try {
      EXP_FLOAT.invokeExact(n, MemorySegment.ofArray(x), xOff, MemorySegment.ofArray(out), outOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }

  @Override
  protected double softmaxKernel(int n, float[] v, int vOff) {
    try {
      return (double) SOFTMAX_FLOAT.invokeExact(n, MemorySegment.ofArray(v), vOff);
    } catch (Throwable t) {
      throw NativeLibrary.rethrow(t);
    }
  }
}
