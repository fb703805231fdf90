package org.largecat.kernel;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/** Check mode for vector kernels: every call is recomputed by the reference and compared. */
final class CheckedVectorOps extends VectorOps {
  private final VectorOps tested;
  private final VectorOps reference;
  private final String name;

  CheckedVectorOps(VectorOps tested, VectorOps reference, String name) {
    this.tested = tested;
    this.reference = reference;
    this.name = name;
  }

  @Override
  protected double dotKernel(int n, float[] x, int xOff, float[] y, int yOff) {
    double got = tested.dotKernel(n, x, xOff, y, yOff);
    double ref = reference.dotKernel(n, x, xOff, y, yOff);
    Agreement.requireSum(
        name,
        "dot",
        -1,
        got,
        ref,
        Agreement.sum(n, magnitude(n, x, xOff, y, yOff), Agreement.DOUBLE_UNIT));
    return got;
  }

  @Override
  protected double dotKernel(int n, double[] x, int xOff, double[] y, int yOff) {
    double got = tested.dotKernel(n, x, xOff, y, yOff);
    double ref = reference.dotKernel(n, x, xOff, y, yOff);
    double magnitude = 0;
    for (int i = 0; i < n; i++) {
      magnitude += Math.abs(x[xOff + i] * y[yOff + i]);
    }
    Agreement.requireSum(
        name, "dot", -1, got, ref, Agreement.sum(n, magnitude, Agreement.DOUBLE_UNIT));
    return got;
  }

  @Override
  protected void axpyKernel(int n, float a, float[] x, int xOff, float[] y, int yOff) {
    float[] expected = Arrays.copyOfRange(y, yOff, yOff + n);
    reference.axpyKernel(n, a, x, xOff, expected, 0);
    float[] before = Arrays.copyOfRange(y, yOff, yOff + n);
    tested.axpyKernel(n, a, x, xOff, y, yOff);
    for (int i = 0; i < n; i++) {
      Agreement.require(
          name,
          "axpy",
          i,
          y[yOff + i],
          expected[i],
          Agreement.update(before[i], (double) a * x[xOff + i], Agreement.FLOAT_UNIT));
    }
  }

  @Override
  protected void axpyKernel(int n, double a, double[] x, int xOff, double[] y, int yOff) {
    double[] expected = Arrays.copyOfRange(y, yOff, yOff + n);
    reference.axpyKernel(n, a, x, xOff, expected, 0);
    double[] before = Arrays.copyOfRange(y, yOff, yOff + n);
    tested.axpyKernel(n, a, x, xOff, y, yOff);
    for (int i = 0; i < n; i++) {
      Agreement.require(
          name,
          "axpy",
          i,
          y[yOff + i],
          expected[i],
          Agreement.update(before[i], a * x[xOff + i], Agreement.DOUBLE_UNIT));
    }
  }

  @Override
  protected void scaleKernel(int n, float a, float[] x, int xOff) {
    float[] expected = Arrays.copyOfRange(x, xOff, xOff + n);
    reference.scaleKernel(n, a, expected, 0);
    tested.scaleKernel(n, a, x, xOff);
    for (int i = 0; i < n; i++) {
      Agreement.require(name, "scale", i, x[xOff + i], expected[i], 0);
    }
  }

  @Override
  protected void scaleKernel(int n, double a, double[] x, int xOff) {
    double[] expected = Arrays.copyOfRange(x, xOff, xOff + n);
    reference.scaleKernel(n, a, expected, 0);
    tested.scaleKernel(n, a, x, xOff);
    for (int i = 0; i < n; i++) {
      Agreement.require(name, "scale", i, x[xOff + i], expected[i], 0);
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
    double[] expected = new double[count];
    reference.gatherDotKernel(w, d, rows, rowsOff, count, x, xOff, expected, 0);
    tested.gatherDotKernel(w, d, rows, rowsOff, count, x, xOff, out, outOff);
    for (int i = 0; i < count; i++) {
      double magnitude = magnitude(d, w, rows[rowsOff + i] * d, x, xOff);
      Agreement.requireSum(
          name,
          "gatherDot",
          i,
          out[outOff + i],
          expected[i],
          Agreement.sum(d, magnitude, Agreement.DOUBLE_UNIT));
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
    double[] expected = new double[count];
    reference.gatherDotSparseKernel(
        w, d, rows, rowsOff, count, indices, values, nzOff, nnz, expected, 0);
    tested.gatherDotSparseKernel(
        w, d, rows, rowsOff, count, indices, values, nzOff, nnz, out, outOff);
    for (int i = 0; i < count; i++) {
      int row = rows[rowsOff + i] * d;
      double magnitude = 0;
      for (int j = nzOff; j < nzOff + nnz; j++) {
        magnitude += Math.abs((double) w[row + indices[j]] * values[j]);
      }
      Agreement.requireSum(
          name,
          "gatherDotSparse",
          i,
          out[outOff + i],
          expected[i],
          Agreement.sum(nnz, magnitude, Agreement.DOUBLE_UNIT));
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
    float[] expected = w.clone();
    reference.scatterAxpyKernel(expected, d, rows, rowsOff, count, coef, coefOff, x, xOff);
    float[] before = w.clone();
    tested.scatterAxpyKernel(w, d, rows, rowsOff, count, coef, coefOff, x, xOff);
    double[] change = new double[w.length]; // sum of |c x| per element, rows may repeat
    for (int i = 0; i < count; i++) {
      for (int j = 0; j < d; j++) {
        change[rows[rowsOff + i] * d + j] += Math.abs((double) coef[coefOff + i] * x[xOff + j]);
      }
    }
    compareMatrix("scatterAxpy", w, expected, before, change);
  }

  /**
   * The reference steps copies of the listed rows only (a table can be far larger than a call's
   * rows), packed in order of first appearance, so that a repeated row's second step still reads
   * its first one's result.
   */
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
    Map<Integer, Integer> packed = new LinkedHashMap<>();
    int[] packedRows = new int[count];
    for (int i = 0; i < count; i++) {
      packedRows[i] = packed.computeIfAbsent(rows[rowsOff + i], row -> packed.size());
    }
    float[] expectedW = pack(w, packed.keySet(), d);
    float[] expectedS = s == null ? null : pack(s, packed.keySet(), d);
    float[] expectedG = Arrays.copyOfRange(g, gOff, gOff + count * d);
    reference.rowStepKernel(
        expectedW,
        expectedS,
        d,
        packedRows,
        0,
        count,
        expectedG,
        0,
        fresh,
        keep,
        weightsOff,
        rate,
        scale,
        precision);
    tested.rowStepKernel(
        w, s, d, rows, rowsOff, count, g, gOff, fresh, keep, weightsOff, rate, scale, precision);
    requireSame("rowStep w", pack(w, packed.keySet(), d), expectedW);
    if (s != null) {
      requireSame("rowStep s", pack(s, packed.keySet(), d), expectedS);
    }
    requireSame("rowStep g", Arrays.copyOfRange(g, gOff, gOff + count * d), expectedG);
  }

  /** The given rows of a row-major table of width d, in the set's order. */
  private static float[] pack(float[] table, Collection<Integer> rows, int d) {
    float[] packed = new float[rows.size() * d];
    int at = 0;
    for (int row : rows) {
      System.arraycopy(table, row * d, packed, at, d);
      at += d;
    }
    return packed;
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
    float[] expected = Arrays.copyOfRange(y, yOff, yOff + d);
    reference.gatherAxpyKernel(w, d, rows, rowsOff, count, coef, coefOff, expected, 0);
    float[] before = Arrays.copyOfRange(y, yOff, yOff + d);
    tested.gatherAxpyKernel(w, d, rows, rowsOff, count, coef, coefOff, y, yOff);
    double[] change = new double[d]; // sum of |c W[row]| per element
    for (int i = 0; i < count; i++) {
      for (int j = 0; j < d; j++) {
        change[j] += Math.abs((double) coef[coefOff + i] * w[rows[rowsOff + i] * d + j]);
      }
    }
    compareMatrix("gatherAxpy", Arrays.copyOfRange(y, yOff, yOff + d), expected, before, change);
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
    float[] expected = w.clone();
    reference.scatterAxpySparseKernel(
        expected, d, rows, rowsOff, count, coef, coefOff, indices, values, nzOff, nnz);
    float[] before = w.clone();
    tested.scatterAxpySparseKernel(
        w, d, rows, rowsOff, count, coef, coefOff, indices, values, nzOff, nnz);
    double[] change = new double[w.length];
    for (int i = 0; i < count; i++) {
      for (int j = nzOff; j < nzOff + nnz; j++) {
        change[rows[rowsOff + i] * d + indices[j]] +=
            Math.abs((double) coef[coefOff + i] * values[j]);
      }
    }
    compareMatrix("scatterAxpySparse", w, expected, before, change);
  }

  @Override
  protected double logSumExpKernel(int n, double[] v, int vOff) {
    double got = tested.logSumExpKernel(n, v, vOff);
    double ref = reference.logSumExpKernel(n, v, vOff);
    Agreement.require(name, "logSumExp", -1, got, ref, Agreement.logSumExp(n, ref));
    return got;
  }

  @Override
  protected double maxKernel(int n, double[] v, int vOff) {
    double got = tested.maxKernel(n, v, vOff);
    Agreement.require(name, "max", -1, got, reference.maxKernel(n, v, vOff), 0);
    return got;
  }

  @Override
  protected double sumExpKernel(int n, double[] v, int vOff, double shift) {
    double got = tested.sumExpKernel(n, v, vOff, shift);
    double ref = reference.sumExpKernel(n, v, vOff, shift);
    Agreement.require(name, "sumExp", -1, got, ref, Agreement.sum(n, ref, Agreement.DOUBLE_UNIT));
    return got;
  }

  @Override
  protected void expKernel(int n, float[] x, int xOff, float[] out, int outOff) {
    float[] expected = new float[n];
    reference.expKernel(n, x, xOff, expected, 0);
    tested.expKernel(n, x, xOff, out, outOff);
    for (int i = 0; i < n; i++) {
      Agreement.require(
          name, "exp", i, out[outOff + i], expected[i], Agreement.floatExp(expected[i]));
    }
  }

  @Override
  protected double sumExpKernel(int n, float[] v, int vOff, float shift) {
    double got = tested.sumExpKernel(n, v, vOff, shift);
    double ref = reference.sumExpKernel(n, v, vOff, shift);
    Agreement.require(name, "sumExp", -1, got, ref, Agreement.sumOfFloatExps(n, ref));
    return got;
  }

  @Override
  protected double softmaxKernel(int n, float[] v, int vOff) {
    float[] expected = Arrays.copyOfRange(v, vOff, vOff + n);
    double ref = reference.softmaxKernel(n, expected, 0);
    double got = tested.softmaxKernel(n, v, vOff);
    Agreement.require(name, "softmax", -1, got, ref, Agreement.logOfFloatExpSum(n, ref));
    for (int i = 0; i < n; i++) {
      Agreement.require(
          name, "softmax", i, v[vOff + i], expected[i], Agreement.floatSoftmax(expected[i]));
    }
    return got;
  }

  private void compareMatrix(
      String op, float[] got, float[] expected, float[] before, double[] change) {
    for (int i = 0; i < got.length; i++) {
      Agreement.require(
          name,
          op,
          i,
          got[i],
          expected[i],
          Agreement.update(before[i], change[i], Agreement.FLOAT_UNIT));
    }
  }

  /** Each element bit for bit (any NaN matching any NaN), the sign of a zero included. */
  private void requireSame(String op, float[] got, float[] expected) {
    for (int i = 0; i < got.length; i++) {
      if (Float.floatToIntBits(got[i]) != Float.floatToIntBits(expected[i])) {
        throw new KernelDisagreementException(
            "check mode: "
                + name
                + " "
                + op
                + " element "
                + i
                + " = "
                + got[i]
                + " but the scalar reference gives "
                + expected[i]
                + " (the same bits are required)");
      }
    }
  }

  private static double magnitude(int n, float[] x, int xOff, float[] y, int yOff) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += Math.abs((double) x[xOff + i] * y[yOff + i]);
    }
    return sum;
  }
}
