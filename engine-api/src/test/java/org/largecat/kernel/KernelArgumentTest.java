package org.largecat.kernel;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The public fronts reject bad calls with a message naming the kernel, the argument and why. */
class KernelArgumentTest {
  private final Kernels k = Kernels.of("scalar");

  private static void rejects(
      Class<? extends RuntimeException> type, String expected, Executable call) {
    RuntimeException e = assertThrows(type, call);
    assertTrue(
        e.getMessage().contains(expected),
        () -> "message '" + e.getMessage() + "' lacks '" + expected + "'");
  }

  @Test
  void vectorOps() {
    VectorOps v = k.vectorOps();
    float[] x = new float[8];
    rejects(IllegalArgumentException.class, "dot: n = -1 is negative", () -> v.dot(-1, x, 0, x, 0));
    rejects(
        IndexOutOfBoundsException.class,
        "dot: y has length 8 but the call reads 8 elements from offset 1",
        () -> v.dot(8, x, 0, x, 1));
    rejects(NullPointerException.class, "axpy: x is null", () -> v.axpy(1, 1f, null, 0, x, 0));
    float[] w = new float[4 * 2];
    double[] out = new double[3];
    rejects(
        IndexOutOfBoundsException.class,
        "gatherDot: rows[1] = 4 is outside [0, 4) (k = 4)",
        () -> v.gatherDot(w, 4, 2, new int[] {0, 4}, 0, 2, x, 0, out, 0));
    rejects(
        IndexOutOfBoundsException.class,
        "gatherDot: w has length 8 but the call reads 10",
        () -> v.gatherDot(w, 5, 2, new int[] {0}, 0, 1, x, 0, out, 0));
    rejects(
        IllegalArgumentException.class,
        "gatherDot: d = 0 must be positive",
        () -> v.gatherDot(w, 4, 0, new int[] {0}, 0, 1, x, 0, out, 0));
    rejects(
        IndexOutOfBoundsException.class,
        "gatherDotSparse: indices[1] = 2 is outside [0, 2) (d = 2)",
        () -> v.gatherDotSparse(w, 4, 2, new int[] {0}, 0, 1, new int[] {0, 2}, x, 0, 2, out, 0));
    rejects(
        IllegalArgumentException.class,
        "scatterAxpySparse: indices must be strictly increasing",
        () -> v.scatterAxpySparse(w, 4, 2, new int[] {0}, 0, 1, x, 0, new int[] {1, 1}, x, 0, 2));
    rejects(
        IndexOutOfBoundsException.class,
        "gatherAxpy: y has length 1 but the call reads 2",
        () -> v.gatherAxpy(w, 4, 2, new int[] {0, 1}, 0, 2, x, 0, new float[1], 0));
    int[] rows = {0, 3};
    rejects(
        IndexOutOfBoundsException.class,
        "rowStep: g has length 3 but the call reads 4 elements from offset 0",
        () -> v.rowStep(w, null, 4, 2, rows, 0, 2, new float[3], 0, null, null, 0, 1f, 1f, 0f));
    rejects(
        IllegalArgumentException.class,
        "rowStep: s and w are the same array; pass separate arrays",
        () -> v.rowStep(w, w, 4, 2, rows, 0, 2, x, 0, x, x, 0, 1f, 1f, 0f));
    rejects(
        NullPointerException.class,
        "rowStep: fresh is null",
        () -> v.rowStep(w, new float[8], 4, 2, rows, 0, 2, x, 0, null, x, 0, 1f, 1f, 0f));
    rejects(
        IndexOutOfBoundsException.class,
        "rowStep: s has length 7 but the call reads 8",
        () -> v.rowStep(w, new float[7], 4, 2, rows, 0, 2, x, 0, x, x, 0, 1f, 1f, 0f));
    rejects(
        IndexOutOfBoundsException.class,
        "scatterAxpy: coef has length 1 but the call reads 2",
        () -> v.scatterAxpy(w, 4, 2, new int[] {0, 1}, 0, 2, new float[1], 0, x, 0));
    rejects(
        IndexOutOfBoundsException.class,
        "logSumExp: v has length 3 but the call reads 4",
        () -> v.logSumExp(4, out, 0));
    rejects(
        IllegalArgumentException.class,
        "softmax: n = 0 must be positive",
        () -> v.softmax(0, new float[1], 0));
    rejects(
        IndexOutOfBoundsException.class,
        "softmax: v has length 2 but the call reads 2 elements from offset 1",
        () -> v.softmax(2, new float[2], 1));
  }

  @Test
  void specialFunctions() {
    SpecialFunctions s = k.specialFunctions();
    double[] x = new double[4];
    rejects(
        IndexOutOfBoundsException.class,
        "normal-logcdf: out has length 4 but the call reads 4 elements from offset 2",
        () -> s.apply(ElementwiseFunction.NORMAL_LOG_CDF, 4, x, 0, x, 2));
    rejects(NullPointerException.class, "apply: f is null", () -> s.apply(null, 1, x, 0, x, 0));
    rejects(
        IllegalArgumentException.class,
        "lambertw0: n = -3 is negative",
        () -> s.apply(ElementwiseFunction.LAMBERT_W0, -3, x, 0, x, 0));
    ElementwiseFunction logCdf = ElementwiseFunction.NORMAL_LOG_CDF;
    ElementwiseFunction mean = ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE;
    double[] y = new double[4];
    rejects(
        IllegalArgumentException.class,
        "applyPair: fOut overlaps x (only gOut may be x)",
        () -> s.applyPair(logCdf, mean, 2, x, 0, x, 1, y, 0));
    rejects(
        IllegalArgumentException.class,
        "applyPair: fOut overlaps gOut",
        () -> s.applyPair(logCdf, mean, 2, x, 0, y, 0, y, 1));
    rejects(
        IndexOutOfBoundsException.class,
        "applyPair: gOut has length 4 but the call reads 3 elements from offset 2",
        () -> s.applyPair(logCdf, mean, 3, x, 0, new double[3], 0, y, 2));
    rejects(
        NullPointerException.class,
        "applyPair: g is null",
        () -> s.applyPair(logCdf, null, 1, x, 0, y, 0, y, 0));
    rejects(
        NullPointerException.class,
        "sumAndApply: f is null",
        () -> s.sumAndApply(null, mean, 1, x, 0, y, 0));
    rejects(
        IllegalArgumentException.class,
        "sumAndApply: n = -1 is negative",
        () -> s.sumAndApply(logCdf, null, -1, x, 0, null, 0));
    rejects(
        IndexOutOfBoundsException.class,
        "sumAndApply: gOut has length 4 but the call reads 3 elements from offset 2",
        () -> s.sumAndApply(logCdf, mean, 3, x, 0, y, 2));
    rejects(
        NullPointerException.class,
        "sumAndApply: gOut is null",
        () -> s.sumAndApply(logCdf, mean, 1, x, 0, null, 0));
    double[] z = new double[8];
    rejects(
        IllegalArgumentException.class,
        "normal-logcdf: out from offset 1 overlaps x from offset 0 (an output may be x only at the same offset)",
        () -> s.apply(logCdf, 4, z, 0, z, 1));
    rejects(
        IllegalArgumentException.class,
        "applyPair: gOut from offset 0 overlaps x from offset 2",
        () -> s.applyPair(logCdf, mean, 4, z, 2, y, 0, z, 0));
    rejects(
        IllegalArgumentException.class,
        "sumAndApply: gOut from offset 3 overlaps x from offset 0",
        () -> s.sumAndApply(logCdf, mean, 4, z, 0, z, 3));
  }

  @Test
  void implicitUpdates() {
    ImplicitUpdates u = k.implicitUpdates();
    double[] a = {1, 2};
    double[] out = new double[2];
    rejects(
        IllegalArgumentException.class,
        "softmaxSingleClass: eta = NaN must be finite and positive",
        () -> u.softmaxSingleClass(2, a, 0, a, 0, a, 0, Double.NaN, 10, 5, out, 0, out, 0));
    rejects(
        IllegalArgumentException.class,
        "softmaxSingleClass: classCount = 1 must be at least 2",
        () -> u.softmaxSingleClass(2, a, 0, a, 0, a, 0, 0.1, 10, 1, out, 0, out, 0));
    rejects(
        IllegalArgumentException.class,
        "softmaxSingleClass: datasetSize = 0 must be positive",
        () -> u.softmaxSingleClass(2, a, 0, a, 0, a, 0, 0.1, 0, 5, out, 0, out, 0));
    rejects(
        IllegalArgumentException.class,
        "softmaxSingleClass: xNorm2[1] = -1.0 is not a squared norm",
        () ->
            u.softmaxSingleClass(
                2, a, 0, a, 0, new double[] {1, -1}, 0, 0.1, 10, 5, out, 0, out, 0));
  }

  @Test
  void matrixOps() {
    MatrixOps m = k.matrixOps();
    double[] a = new double[6];
    rejects(
        IllegalArgumentException.class,
        "gemm: leading dimension of a is 2 but its rows have 3 columns",
        () -> m.gemm(false, false, 2, 2, 3, 1, a, 0, 2, a, 0, 2, 0, a, 0, 2));
    rejects(
        IndexOutOfBoundsException.class,
        "gemv: y has length 6 but the call reads 3 elements from offset 4",
        () -> m.gemv(true, 2, 3, 1, a, 0, 3, a, 0, 0, a, 4));
    rejects(
        IndexOutOfBoundsException.class,
        "syrk: c has length 6 but the call reads 9",
        () -> m.syrk(false, 3, 2, 1, a, 0, 2, 0, a, 0, 3));
    rejects(
        IllegalArgumentException.class,
        "choleskyFactor: n = -1 is negative",
        () -> m.choleskyFactor(-1, a, 0, 1));
    rejects(
        IndexOutOfBoundsException.class,
        "choleskySolve: b has length 6 but the call reads 9",
        () -> m.choleskySolve(3, 3, new double[9], 0, 3, a, 0, 3));
  }
}
