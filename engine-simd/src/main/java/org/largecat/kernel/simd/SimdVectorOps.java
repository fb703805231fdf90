package org.largecat.kernel.simd;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.largecat.kernel.scalar.ScalarVectorOps;

/**
 * Vector kernels on the Vector API. Dot products of floats widen each float to double (exactly) and
 * accumulate in double lanes, four independent accumulators wide, so they neither overflow where
 * the reference does not nor leave its (n + 2) * 2^-52 * sum |x_i y_i| bound; updates (axpy,
 * scatter) use lane-wise fused multiply-add and are bit-identical to the scalar reference; exp is
 * the Vector API's, within 1 ulp.
 */
final class SimdVectorOps extends ScalarVectorOps {
  private static final VectorSpecies<Float> F = SimdWidth.FLOATS;
  private static final VectorSpecies<Double> D = SimdWidth.DOUBLES;

  /**
   * Floats as many as D has lanes, to widen into one double vector. The widening is written out at
   * each use: a helper returning a vector, left out of line when a caller's inlining budget runs
   * out, boxes every vector it returns, which makes the dot slower than scalar.
   */
  private static final VectorSpecies<Float> FH = SimdWidth.FLOATS_PER_DOUBLES;

  @Override
  protected double dotKernel(int n, float[] x, int xOff, float[] y, int yOff) {
    int step = D.length();
    DoubleVector acc0 = DoubleVector.zero(D);
    DoubleVector acc1 = DoubleVector.zero(D);
    DoubleVector acc2 = DoubleVector.zero(D);
    DoubleVector acc3 = DoubleVector.zero(D);
    int i = 0;
    for (; i <= n - 4 * step; i += 4 * step) {
      acc0 =
          ((DoubleVector) FloatVector.fromArray(FH, x, xOff + i).castShape(D, 0))
              .fma((DoubleVector) FloatVector.fromArray(FH, y, yOff + i).castShape(D, 0), acc0);
      acc1 =
          ((DoubleVector) FloatVector.fromArray(FH, x, xOff + i + step).castShape(D, 0))
              .fma(
                  (DoubleVector) FloatVector.fromArray(FH, y, yOff + i + step).castShape(D, 0),
                  acc1);
      acc2 =
          ((DoubleVector) FloatVector.fromArray(FH, x, xOff + i + 2 * step).castShape(D, 0))
              .fma(
                  (DoubleVector) FloatVector.fromArray(FH, y, yOff + i + 2 * step).castShape(D, 0),
                  acc2);
      acc3 =
          ((DoubleVector) FloatVector.fromArray(FH, x, xOff + i + 3 * step).castShape(D, 0))
              .fma(
                  (DoubleVector) FloatVector.fromArray(FH, y, yOff + i + 3 * step).castShape(D, 0),
                  acc3);
    }
    for (; i <= n - step; i += step) {
      acc0 =
          ((DoubleVector) FloatVector.fromArray(FH, x, xOff + i).castShape(D, 0))
              .fma((DoubleVector) FloatVector.fromArray(FH, y, yOff + i).castShape(D, 0), acc0);
    }
    double sum = acc0.add(acc1).add(acc2.add(acc3)).reduceLanes(VectorOperators.ADD);
    for (; i < n; i++) {
      sum += (double) x[xOff + i] * y[yOff + i];
    }
    return sum;
  }

  @Override
  protected double dotKernel(int n, double[] x, int xOff, double[] y, int yOff) {
    int step = D.length();
    DoubleVector acc0 = DoubleVector.zero(D);
    DoubleVector acc1 = DoubleVector.zero(D);
    DoubleVector acc2 = DoubleVector.zero(D);
    DoubleVector acc3 = DoubleVector.zero(D);
    int i = 0;
    for (; i <= n - 4 * step; i += 4 * step) {
      acc0 =
          DoubleVector.fromArray(D, x, xOff + i).fma(DoubleVector.fromArray(D, y, yOff + i), acc0);
      acc1 =
          DoubleVector.fromArray(D, x, xOff + i + step)
              .fma(DoubleVector.fromArray(D, y, yOff + i + step), acc1);
      acc2 =
          DoubleVector.fromArray(D, x, xOff + i + 2 * step)
              .fma(DoubleVector.fromArray(D, y, yOff + i + 2 * step), acc2);
      acc3 =
          DoubleVector.fromArray(D, x, xOff + i + 3 * step)
              .fma(DoubleVector.fromArray(D, y, yOff + i + 3 * step), acc3);
    }
    for (; i <= n - step; i += step) {
      acc0 =
          DoubleVector.fromArray(D, x, xOff + i).fma(DoubleVector.fromArray(D, y, yOff + i), acc0);
    }
    double sum = acc0.add(acc1).add(acc2.add(acc3)).reduceLanes(VectorOperators.ADD);
    for (; i < n; i++) {
      sum = Math.fma(x[xOff + i], y[yOff + i], sum);
    }
    return sum;
  }

  @Override
  protected void axpyKernel(int n, float a, float[] x, int xOff, float[] y, int yOff) {
    FloatVector av = FloatVector.broadcast(F, a);
    int i = 0;
    for (; i <= n - F.length(); i += F.length()) {
      FloatVector.fromArray(F, x, xOff + i)
          .fma(av, FloatVector.fromArray(F, y, yOff + i))
          .intoArray(y, yOff + i);
    }
    for (; i < n; i++) {
      y[yOff + i] = Math.fma(a, x[xOff + i], y[yOff + i]);
    }
  }

  @Override
  protected void axpyKernel(int n, double a, double[] x, int xOff, double[] y, int yOff) {
    DoubleVector av = DoubleVector.broadcast(D, a);
    int i = 0;
    for (; i <= n - D.length(); i += D.length()) {
      DoubleVector.fromArray(D, x, xOff + i)
          .fma(av, DoubleVector.fromArray(D, y, yOff + i))
          .intoArray(y, yOff + i);
    }
    for (; i < n; i++) {
      y[yOff + i] = Math.fma(a, x[xOff + i], y[yOff + i]);
    }
  }

  @Override
  protected void scaleKernel(int n, float a, float[] x, int xOff) {
    int i = 0;
    for (; i <= n - F.length(); i += F.length()) {
      FloatVector.fromArray(F, x, xOff + i).mul(a).intoArray(x, xOff + i);
    }
    for (; i < n; i++) {
      x[xOff + i] *= a;
    }
  }

  @Override
  protected void scaleKernel(int n, double a, double[] x, int xOff) {
    int i = 0;
    for (; i <= n - D.length(); i += D.length()) {
      DoubleVector.fromArray(D, x, xOff + i).mul(a).intoArray(x, xOff + i);
    }
    for (; i < n; i++) {
      x[xOff + i] *= a;
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
    int step = D.length();
    for (int r = 0; r < count; r++) {
      int row = rows[rowsOff + r] * d;
      DoubleVector acc = DoubleVector.zero(D);
      int j = 0;
      for (; j <= nnz - step; j += step) {
        DoubleVector wv =
            (DoubleVector) FloatVector.fromArray(FH, w, row, indices, nzOff + j).castShape(D, 0);
        acc =
            wv.fma(
                (DoubleVector) FloatVector.fromArray(FH, values, nzOff + j).castShape(D, 0), acc);
      }
      double sum = acc.reduceLanes(VectorOperators.ADD);
      for (; j < nnz; j++) {
        sum += (double) w[row + indices[nzOff + j]] * values[nzOff + j];
      }
      out[outOff + r] = sum;
    }
  }

  /** Each vector of y stays in a register across the rows: one load and store, not one a row. */
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
    int j = 0;
    for (; j <= d - F.length(); j += F.length()) {
      FloatVector acc = FloatVector.fromArray(F, y, yOff + j);
      for (int i = 0; i < count; i++) {
        acc =
            FloatVector.fromArray(F, w, rows[rowsOff + i] * d + j)
                .fma(FloatVector.broadcast(F, coef[coefOff + i]), acc);
      }
      acc.intoArray(y, yOff + j);
    }
    for (; j < d; j++) {
      float acc = y[yOff + j];
      for (int i = 0; i < count; i++) {
        acc = Math.fma(coef[coefOff + i], w[rows[rowsOff + i] * d + j], acc);
      }
      y[yOff + j] = acc;
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
    FloatVector zero = FloatVector.zero(F);
    int vectorEnd = F.loopBound(d);
    for (int i = 0; i < count; i++) {
      int row = rows[rowsOff + i] * d;
      int grad = gOff + i * d;
      float f = s == null ? 0 : fresh[weightsOff + i];
      float k = s == null ? 0 : keep[weightsOff + i];
      for (int j = 0; j < vectorEnd; j += F.length()) {
        FloatVector wv = FloatVector.fromArray(F, w, row + j);
        FloatVector gv = FloatVector.fromArray(F, g, grad + j).mul(scale).sub(wv.mul(precision));
        zero.intoArray(g, grad + j);
        if (s == null) {
          wv.add(gv.mul(rate)).intoArray(w, row + j);
        } else {
          FloatVector sv = gv.mul(f).mul(gv).add(FloatVector.fromArray(F, s, row + j).mul(k));
          sv.intoArray(s, row + j);
          wv.add(gv.mul(rate).div(sv.lanewise(VectorOperators.SQRT).add(1f))).intoArray(w, row + j);
        }
      }
      stepElements(w, s, row, g, grad, vectorEnd, d, f, k, rate, scale, precision);
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
    int step = F.length();
    for (int r = 0; r < count; r++) {
      int row = rows[rowsOff + r] * d;
      float c = coef[coefOff + r];
      FloatVector cv = FloatVector.broadcast(F, c);
      int j = 0;
      // The indices of a CSR row are strictly increasing (checked at the front), so no two lanes
      // of one scatter write the same element.
      for (; j <= nnz - step; j += step) {
        FloatVector wv = FloatVector.fromArray(F, w, row, indices, nzOff + j);
        FloatVector.fromArray(F, values, nzOff + j)
            .fma(cv, wv)
            .intoArray(w, row, indices, nzOff + j);
      }
      for (; j < nnz; j++) {
        int at = row + indices[nzOff + j];
        w[at] = Math.fma(c, values[nzOff + j], w[at]);
      }
    }
  }

  @Override
  protected double maxKernel(int n, double[] v, int vOff) {
    DoubleVector max = DoubleVector.broadcast(D, Double.NEGATIVE_INFINITY);
    int i = 0;
    for (; i <= n - D.length(); i += D.length()) {
      max =
          max.lanewise(
              VectorOperators.MAX, DoubleVector.fromArray(D, v, vOff + i)); // MAX propagates NaN
    }
    double result = max.reduceLanes(VectorOperators.MAX);
    for (; i < n; i++) {
      result = Math.max(result, v[vOff + i]);
    }
    return result;
  }

  @Override
  protected double sumExpKernel(int n, double[] v, int vOff, double shift) {
    DoubleVector acc0 = DoubleVector.zero(D);
    DoubleVector acc1 = DoubleVector.zero(D);
    int step = D.length();
    int i = 0;
    for (; i <= n - 2 * step; i += 2 * step) {
      acc0 =
          acc0.add(DoubleVector.fromArray(D, v, vOff + i).sub(shift).lanewise(VectorOperators.EXP));
      acc1 =
          acc1.add(
              DoubleVector.fromArray(D, v, vOff + i + step)
                  .sub(shift)
                  .lanewise(VectorOperators.EXP));
    }
    for (; i <= n - step; i += step) {
      acc0 =
          acc0.add(DoubleVector.fromArray(D, v, vOff + i).sub(shift).lanewise(VectorOperators.EXP));
    }
    double sum = acc0.add(acc1).reduceLanes(VectorOperators.ADD);
    for (; i < n; i++) {
      sum += Math.exp(v[vOff + i] - shift);
    }
    return sum;
  }

  /**
   * The Vector API's float exp, within 1 float ulp, a whole float vector (twice the lanes of
   * double) at a time.
   */
  @Override
  protected void expKernel(int n, float[] x, int xOff, float[] out, int outOff) {
    int i = 0;
    for (; i <= n - F.length(); i += F.length()) {
      FloatVector.fromArray(F, x, xOff + i)
          .lanewise(VectorOperators.EXP)
          .intoArray(out, outOff + i);
    }
    super.expKernel(n - i, x, xOff + i, out, outOff + i);
  }

  /**
   * Float exponentials a whole float vector at a time, each half widened into its own double
   * accumulator.
   */
  @Override
  protected double sumExpKernel(int n, float[] v, int vOff, float shift) {
    DoubleVector acc0 = DoubleVector.zero(D);
    DoubleVector acc1 = DoubleVector.zero(D);
    int i = 0;
    for (; i <= n - F.length(); i += F.length()) {
      FloatVector e =
          FloatVector.fromArray(F, v, vOff + i).sub(shift).lanewise(VectorOperators.EXP);
      acc0 = acc0.add((DoubleVector) e.convertShape(VectorOperators.F2D, D, 0));
      acc1 = acc1.add((DoubleVector) e.convertShape(VectorOperators.F2D, D, 1));
    }
    return acc0.add(acc1).reduceLanes(VectorOperators.ADD)
        + super.sumExpKernel(n - i, v, vOff + i, shift);
  }

  /**
   * Three passes a float vector at a time: the maximum, the exponentials stored and widened into
   * two double accumulators, and the scaling by the sum's inverse.
   */
  @Override
  protected double softmaxKernel(int n, float[] v, int vOff) {
    int step = F.length();
    FloatVector highest = FloatVector.broadcast(F, Float.NEGATIVE_INFINITY);
    int i = 0;
    for (; i <= n - step; i += step) {
      highest = highest.lanewise(VectorOperators.MAX, FloatVector.fromArray(F, v, vOff + i));
    }
    float max = highest.reduceLanes(VectorOperators.MAX);
    for (; i < n; i++) {
      max = Math.max(max, v[vOff + i]);
    }
    if (!Float.isFinite(max)) {
      return super.softmaxKernel(n, v, vOff);
    }
    DoubleVector acc0 = DoubleVector.zero(D);
    DoubleVector acc1 = DoubleVector.zero(D);
    for (i = 0; i <= n - step; i += step) {
      FloatVector e = FloatVector.fromArray(F, v, vOff + i).sub(max).lanewise(VectorOperators.EXP);
      e.intoArray(v, vOff + i);
      acc0 = acc0.add((DoubleVector) e.convertShape(VectorOperators.F2D, D, 0));
      acc1 = acc1.add((DoubleVector) e.convertShape(VectorOperators.F2D, D, 1));
    }
    double sum = acc0.add(acc1).reduceLanes(VectorOperators.ADD);
    for (int j = i; j < n; j++) {
      float e = (float) Math.exp(v[vOff + j] - max);
      v[vOff + j] = e;
      sum += e;
    }
    float inverse = (float) (1 / sum);
    for (i = 0; i <= n - step; i += step) {
      FloatVector.fromArray(F, v, vOff + i).mul(inverse).intoArray(v, vOff + i);
    }
    for (; i < n; i++) {
      v[vOff + i] *= inverse;
    }
    return max + Math.log(sum);
  }
}
