package org.largecat.kernel.scalar;

import java.util.Arrays;
import org.largecat.kernel.VectorOps;

/** Reference vector kernels: one element at a time, sums accumulated in double. */
public class ScalarVectorOps extends VectorOps {

  @Override
  protected double dotKernel(int n, float[] x, int xOff, float[] y, int yOff) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += (double) x[xOff + i] * y[yOff + i];
    }
    return sum;
  }

  @Override
  protected double dotKernel(int n, double[] x, int xOff, double[] y, int yOff) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum = Math.fma(x[xOff + i], y[yOff + i], sum);
    }
    return sum;
  }

  @Override
  protected void axpyKernel(int n, float a, float[] x, int xOff, float[] y, int yOff) {
    for (int i = 0; i < n; i++) {
      y[yOff + i] = Math.fma(a, x[xOff + i], y[yOff + i]);
    }
  }

  @Override
  protected void axpyKernel(int n, double a, double[] x, int xOff, double[] y, int yOff) {
    for (int i = 0; i < n; i++) {
      y[yOff + i] = Math.fma(a, x[xOff + i], y[yOff + i]);
    }
  }

  @Override
  protected void scaleKernel(int n, float a, float[] x, int xOff) {
    for (int i = 0; i < n; i++) {
      x[xOff + i] *= a;
    }
  }

  @Override
  protected void scaleKernel(int n, double a, double[] x, int xOff) {
    for (int i = 0; i < n; i++) {
      x[xOff + i] *= a;
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
    for (int i = 0; i < count; i++) {
      out[outOff + i] = dotKernel(d, w, rows[rowsOff + i] * d, x, xOff);
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
    for (int i = 0; i < count; i++) {
      int row = rows[rowsOff + i] * d;
      double sum = 0;
      for (int j = nzOff; j < nzOff + nnz; j++) {
        sum += (double) w[row + indices[j]] * values[j];
      }
      out[outOff + i] = sum;
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
    for (int i = 0; i < count; i++) {
      axpyKernel(d, coef[coefOff + i], x, xOff, w, rows[rowsOff + i] * d);
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
    for (int i = 0; i < count; i++) {
      axpyKernel(d, coef[coefOff + i], w, rows[rowsOff + i] * d, y, yOff);
    }
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
    for (int i = 0; i < count; i++) {
      int row = rows[rowsOff + i] * d;
      float c = coef[coefOff + i];
      for (int j = nzOff; j < nzOff + nnz; j++) {
        int at = row + indices[j];
        w[at] = Math.fma(c, values[j], w[at]);
      }
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
    for (int i = 0; i < count; i++) {
      stepElements(
          w,
          s,
          rows[rowsOff + i] * d,
          g,
          gOff + i * d,
          0,
          d,
          s == null ? 0 : fresh[weightsOff + i],
          s == null ? 0 : keep[weightsOff + i],
          rate,
          scale,
          precision);
    }
  }

  /**
   * Elements [from, to) of one row's {@link #rowStepKernel} step: the row at w[wOff] (and s[wOff]),
   * its gradient at g[gOff].
   */
  protected static void stepElements(
      float[] w,
      float[] s,
      int wOff,
      float[] g,
      int gOff,
      int from,
      int to,
      float fresh,
      float keep,
      float rate,
      float scale,
      float precision) {
    for (int j = from; j < to; j++) {
      float gj = g[gOff + j] * scale - precision * w[wOff + j];
      g[gOff + j] = 0;
      if (s == null) {
        w[wOff + j] += rate * gj;
      } else {
        float sj = fresh * gj * gj + keep * s[wOff + j];
        s[wOff + j] = sj;
        w[wOff + j] += rate * gj / (1 + (float) Math.sqrt(sj));
      }
    }
  }

  @Override
  protected double logSumExpKernel(int n, double[] v, int vOff) {
    double max = maxKernel(n, v, vOff);
    if (Double.isInfinite(max) || Double.isNaN(max)) {
      return max; // all -Inf, or a +Inf or NaN term decides the result
    }
    return max + Math.log(sumExpKernel(n, v, vOff, max));
  }

  @Override
  protected double maxKernel(int n, double[] v, int vOff) {
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      double x = v[vOff + i];
      if (x > max || Double.isNaN(x)) {
        max = x;
        if (Double.isNaN(x)) {
          return x;
        }
      }
    }
    return max;
  }

  @Override
  protected double sumExpKernel(int n, double[] v, int vOff, double shift) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += Math.exp(v[vOff + i] - shift);
    }
    return sum;
  }

  @Override
  protected void expKernel(int n, float[] x, int xOff, float[] out, int outOff) {
    for (int i = 0; i < n; i++) {
      out[outOff + i] = (float) Math.exp(x[xOff + i]);
    }
  }

  @Override
  protected double sumExpKernel(int n, float[] v, int vOff, float shift) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += (float) Math.exp(v[vOff + i] - shift);
    }
    return sum;
  }

  @Override
  protected double softmaxKernel(int n, float[] v, int vOff) {
    float max = Float.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      max = Math.max(max, v[vOff + i]); // Math.max propagates NaN
    }
    if (!Float.isFinite(max)) {
      Arrays.fill(v, vOff, vOff + n, Float.NaN);
      return max;
    }
    double sum = 0;
    for (int i = 0; i < n; i++) {
      float e = (float) Math.exp(v[vOff + i] - max);
      v[vOff + i] = e;
      sum += e;
    }
    double inverse = 1 / sum;
    for (int i = 0; i < n; i++) {
      v[vOff + i] = (float) (v[vOff + i] * inverse);
    }
    return max + Math.log(sum);
  }
}
