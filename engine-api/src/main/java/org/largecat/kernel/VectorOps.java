package org.largecat.kernel;

/**
 * Vector kernels over contiguous arrays and over a row subset of a K x D row-major float matrix.
 *
 * <p>Each public method checks its arguments once and calls the matching {@code ...Kernel} method,
 * which backends override and which may assume valid input. Dot products of floats are accumulated
 * in double, so they overflow only where the double result does; see {@link Agreement} for the
 * error every backend must stay within.
 */
public abstract class VectorOps {

  /** Returns the dot product of {@code x[xOff..xOff+n)} and {@code y[yOff..yOff+n)}. */
  public final double dot(int n, float[] x, int xOff, float[] y, int yOff) {
    Checks.count("dot", "n", n);
    Checks.span("dot", "x", x, xOff, n);
    Checks.span("dot", "y", y, yOff, n);
    return dotKernel(n, x, xOff, y, yOff);
  }

  /** Returns the dot product of {@code x[xOff..xOff+n)} and {@code y[yOff..yOff+n)}. */
  public final double dot(int n, double[] x, int xOff, double[] y, int yOff) {
    Checks.count("dot", "n", n);
    Checks.span("dot", "x", x, xOff, n);
    Checks.span("dot", "y", y, yOff, n);
    return dotKernel(n, x, xOff, y, yOff);
  }

  /** y += a * x over n elements, each element rounded once (fused multiply-add). */
  public final void axpy(int n, float a, float[] x, int xOff, float[] y, int yOff) {
    Checks.count("axpy", "n", n);
    Checks.span("axpy", "x", x, xOff, n);
    Checks.span("axpy", "y", y, yOff, n);
    axpyKernel(n, a, x, xOff, y, yOff);
  }

  /** y += a * x over n elements, each element rounded once (fused multiply-add). */
  public final void axpy(int n, double a, double[] x, int xOff, double[] y, int yOff) {
    Checks.count("axpy", "n", n);
    Checks.span("axpy", "x", x, xOff, n);
    Checks.span("axpy", "y", y, yOff, n);
    axpyKernel(n, a, x, xOff, y, yOff);
  }

  /** x *= a over n elements. */
  public final void scale(int n, float a, float[] x, int xOff) {
    Checks.count("scale", "n", n);
    Checks.span("scale", "x", x, xOff, n);
    scaleKernel(n, a, x, xOff);
  }

  /** x *= a over n elements. */
  public final void scale(int n, double a, double[] x, int xOff) {
    Checks.count("scale", "n", n);
    Checks.span("scale", "x", x, xOff, n);
    scaleKernel(n, a, x, xOff);
  }

  /**
   * out[outOff + i] = W[rows[rowsOff + i]] . x for i < count, where W is the k x d row-major matrix
   * in {@code w} and x is dense, {@code x[xOff..xOff+d)}.
   */
  public final void gatherDot(
      float[] w,
      int k,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] x,
      int xOff,
      double[] out,
      int outOff) {
    checkRows("gatherDot", w, k, d, rows, rowsOff, count);
    Checks.span("gatherDot", "x", x, xOff, d);
    Checks.span("gatherDot", "out", out, outOff, count);
    gatherDotKernel(w, d, rows, rowsOff, count, x, xOff, out, outOff);
  }

  /**
   * out[outOff + i] = W[rows[rowsOff + i]] . x for i < count, where x is sparse: the nnz pairs
   * (indices[nzOff + j], values[nzOff + j]), one CSR row, indices strictly increasing in [0, d).
   */
  public final void gatherDotSparse(
      float[] w,
      int k,
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
    checkRows("gatherDotSparse", w, k, d, rows, rowsOff, count);
    checkSparse("gatherDotSparse", d, indices, values, nzOff, nnz);
    Checks.span("gatherDotSparse", "out", out, outOff, count);
    gatherDotSparseKernel(w, d, rows, rowsOff, count, indices, values, nzOff, nnz, out, outOff);
  }

  /**
   * W[rows[rowsOff + i]] += coef[coefOff + i] * x for i < count, x dense; each element rounded
   * once. Rows may repeat: updates apply in order.
   */
  public final void scatterAxpy(
      float[] w,
      int k,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] coef,
      int coefOff,
      float[] x,
      int xOff) {
    checkRows("scatterAxpy", w, k, d, rows, rowsOff, count);
    Checks.span("scatterAxpy", "coef", coef, coefOff, count);
    Checks.span("scatterAxpy", "x", x, xOff, d);
    scatterAxpyKernel(w, d, rows, rowsOff, count, coef, coefOff, x, xOff);
  }

  /**
   * y[yOff..yOff+d) += coef[coefOff + i] * W[rows[rowsOff + i]] for i < count, in that order; each
   * element rounded once a row. The transpose of {@link #gatherDot}: it sums one class's gradient
   * row from the examples that touched it, with one call for them all.
   */
  public final void gatherAxpy(
      float[] w,
      int k,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] coef,
      int coefOff,
      float[] y,
      int yOff) {
    checkRows("gatherAxpy", w, k, d, rows, rowsOff, count);
    Checks.span("gatherAxpy", "coef", coef, coefOff, count);
    Checks.span("gatherAxpy", "y", y, yOff, d);
    gatherAxpyKernel(w, d, rows, rowsOff, count, coef, coefOff, y, yOff);
  }

  /**
   * W[rows[rowsOff + i]] += coef[coefOff + i] * x for i < count, x one sparse CSR row (indices
   * strictly increasing in [0, d)); each element rounded once. Rows may repeat: updates apply in
   * order.
   */
  public final void scatterAxpySparse(
      float[] w,
      int k,
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
    checkRows("scatterAxpySparse", w, k, d, rows, rowsOff, count);
    Checks.span("scatterAxpySparse", "coef", coef, coefOff, count);
    checkSparse("scatterAxpySparse", d, indices, values, nzOff, nnz);
    scatterAxpySparseKernel(w, d, rows, rowsOff, count, coef, coefOff, indices, values, nzOff, nnz);
  }

  /**
   * One gradient step of {@code count} rows of a K x d row-major float table w, rows applied in the
   * order given (they may repeat). Row ρ = rows[rowsOff + i] takes the gradient γ = g[gOff + i·d,
   * gOff + (i + 1)·d), which is set to zero; each element j of it first becomes γ_j·scale −
   * precision·w_ρj (a Gaussian prior's pull). With s, the running mean of squared gradients in a
   * table shaped as w, the step is adaptive: s_ρj = fresh_i·γ_j² + keep_i·s_ρj, then w_ρj +=
   * rate·γ_j / (1 + √s_ρj), with fresh_i = fresh[weightsOff + i] and keep_i likewise (the weights
   * of the new square and of the old s); with s null it is plain, w_ρj += rate·γ_j, and fresh and
   * keep may be null. Each operation rounds once, in the order written and with no fused
   * multiply-add, so that every backend gives the same bits.
   */
  public final void rowStep(
      float[] w,
      float[] s,
      int k,
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
    checkRows("rowStep", w, k, d, rows, rowsOff, count);
    Checks.span("rowStep", "g", g, gOff, (long) count * d);
    Checks.distinct("rowStep", "g", g, "w", w);
    if (s != null) {
      Checks.span("rowStep", "s", s, 0, (long) k * d);
      Checks.distinct("rowStep", "s", s, "w", w);
      Checks.distinct("rowStep", "s", s, "g", g);
      Checks.span("rowStep", "fresh", fresh, weightsOff, count);
      Checks.span("rowStep", "keep", keep, weightsOff, count);
    }
    rowStepKernel(
        w, s, d, rows, rowsOff, count, g, gOff, fresh, keep, weightsOff, rate, scale, precision);
  }

  /** Returns log(sum exp(v)) over n elements, shifted by the maximum; -Inf for n = 0. */
  public final double logSumExp(int n, double[] v, int vOff) {
    Checks.count("logSumExp", "n", n);
    Checks.span("logSumExp", "v", v, vOff, n);
    return logSumExpKernel(n, v, vOff);
  }

  /** Returns the largest of n elements (NaN if any is NaN); -Inf for n = 0. */
  public final double max(int n, double[] v, int vOff) {
    Checks.count("max", "n", n);
    Checks.span("max", "v", v, vOff, n);
    return maxKernel(n, v, vOff);
  }

  /** Returns sum exp(v[i] - shift) over n elements. */
  public final double sumExp(int n, double[] v, int vOff, double shift) {
    Checks.count("sumExp", "n", n);
    Checks.span("sumExp", "v", v, vOff, n);
    return sumExpKernel(n, v, vOff, shift);
  }

  /**
   * out[i] = e^{x[i]} over n floats: within 2 float ulps of the exact value, +Inf above about
   * 88.72, 0 below about -103.97, NaN for NaN; a backend may compute in float. In place when out is
   * x.
   */
  public final void exp(int n, float[] x, int xOff, float[] out, int outOff) {
    Checks.count("exp", "n", n);
    Checks.span("exp", "x", x, xOff, n);
    Checks.span("exp", "out", out, outOff, n);
    expKernel(n, x, xOff, out, outOff);
  }

  /**
   * Returns the sum of e^{v[i] - shift} over n floats, accumulated in double. Each term is the
   * float exponential of the float difference (as a float score makes it), so a term beyond float
   * range is +Inf; each is within 2 float ulps, and a backend may form them in float.
   */
  public final double sumExp(int n, float[] v, int vOff, float shift) {
    Checks.count("sumExp", "n", n);
    Checks.span("sumExp", "v", v, vOff, n);
    return sumExpKernel(n, v, vOff, shift);
  }

  /**
   * Turns n float scores into their softmax in place, v[i] := e^{v[i] - m} / Σ_j e^{v[j] - m} with
   * m the largest, and returns log Σ_j e^{v[j]} = m + log Σ_j e^{v[j] - m}, the sum in double (a
   * row of a full softmax: the log-normaliser and the probabilities in one call). Each term is the
   * float exponential of the float difference, within 2 float ulps, and a backend may form them in
   * float. When m is not finite (a NaN, a +Inf, or every score -Inf) it returns m and sets every
   * v[i] to NaN.
   */
  public final double softmax(int n, float[] v, int vOff) {
    Checks.positive("softmax", "n", n);
    Checks.span("softmax", "v", v, vOff, n);
    return softmaxKernel(n, v, vOff);
  }

  private static void checkRows(
      String op, float[] w, int k, int d, int[] rows, int rowsOff, int count) {
    Checks.positive(op, "k", k);
    Checks.positive(op, "d", d);
    Checks.count(op, "count", count);
    Checks.span(op, "w", w, 0, (long) k * d);
    Checks.indices(op, "rows", rows, rowsOff, count, k, "k");
  }

  private static void checkSparse(
      String op, int d, int[] indices, float[] values, int nzOff, int nnz) {
    Checks.count(op, "nnz", nnz);
    Checks.span(op, "values", values, nzOff, nnz);
    Checks.indices(op, "indices", indices, nzOff, nnz, d, "d");
    Checks.strictlyIncreasing(op, "indices", indices, nzOff, nnz);
  }

  protected abstract double dotKernel(int n, float[] x, int xOff, float[] y, int yOff);

  protected abstract double dotKernel(int n, double[] x, int xOff, double[] y, int yOff);

  protected abstract void axpyKernel(int n, float a, float[] x, int xOff, float[] y, int yOff);

  protected abstract void axpyKernel(int n, double a, double[] x, int xOff, double[] y, int yOff);

  protected abstract void scaleKernel(int n, float a, float[] x, int xOff);

  protected abstract void scaleKernel(int n, double a, double[] x, int xOff);

  protected abstract void gatherDotKernel(
      float[] w,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] x,
      int xOff,
      double[] out,
      int outOff);

  protected abstract void gatherDotSparseKernel(
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
      int outOff);

  protected abstract void scatterAxpyKernel(
      float[] w,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] coef,
      int coefOff,
      float[] x,
      int xOff);

  protected abstract void gatherAxpyKernel(
      float[] w,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] coef,
      int coefOff,
      float[] y,
      int yOff);

  protected abstract void scatterAxpySparseKernel(
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
      int nnz);

  protected abstract void rowStepKernel(
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
      float precision);

  protected abstract double logSumExpKernel(int n, double[] v, int vOff);

  protected abstract double maxKernel(int n, double[] v, int vOff);

  protected abstract double sumExpKernel(int n, double[] v, int vOff, double shift);

  protected abstract void expKernel(int n, float[] x, int xOff, float[] out, int outOff);

  protected abstract double sumExpKernel(int n, float[] v, int vOff, float shift);

  protected abstract double softmaxKernel(int n, float[] v, int vOff);
}
