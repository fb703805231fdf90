package org.largecat.kernel;

import java.util.function.IntToDoubleFunction;

/**
 * Check mode for matrix kernels. Products are compared with the reference element by element within
 * a bound scaled by the inner dimension and the magnitude of the terms; factorisations and solves,
 * whose forward error depends on conditioning, are checked by their backward error instead.
 * Elements outside the written region must be left exactly as they were.
 */
final class CheckedMatrixOps extends MatrixOps {
  private final MatrixOps tested;
  private final MatrixOps reference;
  private final String name;

  CheckedMatrixOps(MatrixOps tested, MatrixOps reference, String name) {
    this.tested = tested;
    this.reference = reference;
    this.name = name;
  }

  /** Which elements of a row-major region a kernel may write. */
  private interface Region {
    boolean contains(int row, int col);
  }

  @Override
  protected void gemmKernel(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      double alpha,
      double[] a,
      int aOff,
      int lda,
      double[] b,
      int bOff,
      int ldb,
      double beta,
      double[] c,
      int cOff,
      int ldc) {
    double[] expected = c.clone();
    reference.gemmKernel(
        transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, expected, cOff, ldc);
    double[] magnitude = abs(c);
    reference.gemmKernel(
        transA,
        transB,
        m,
        n,
        k,
        Math.abs(alpha),
        abs(a),
        aOff,
        lda,
        abs(b),
        bOff,
        ldb,
        Math.abs(beta),
        magnitude,
        cOff,
        ldc);
    tested.gemmKernel(
        transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
    compare(
        "gemm",
        c.length,
        i -> c[i],
        i -> expected[i],
        i -> magnitude[i],
        Agreement.DOUBLE_UNIT,
        k,
        cOff,
        ldc,
        (i, j) -> i < m && j < n);
  }

  @Override
  protected void gemmKernel(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      float alpha,
      float[] a,
      int aOff,
      int lda,
      float[] b,
      int bOff,
      int ldb,
      float beta,
      float[] c,
      int cOff,
      int ldc) {
    float[] expected = c.clone();
    reference.gemmKernel(
        transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, expected, cOff, ldc);
    float[] magnitude = abs(c);
    reference.gemmKernel(
        transA,
        transB,
        m,
        n,
        k,
        Math.abs(alpha),
        abs(a),
        aOff,
        lda,
        abs(b),
        bOff,
        ldb,
        Math.abs(beta),
        magnitude,
        cOff,
        ldc);
    tested.gemmKernel(
        transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
    compare(
        "sgemm",
        c.length,
        i -> c[i],
        i -> expected[i],
        i -> magnitude[i],
        Agreement.FLOAT_UNIT,
        k,
        cOff,
        ldc,
        (i, j) -> i < m && j < n);
  }

  @Override
  protected void gemvKernel(
      boolean trans,
      int m,
      int n,
      double alpha,
      double[] a,
      int aOff,
      int lda,
      double[] x,
      int xOff,
      double beta,
      double[] y,
      int yOff) {
    double[] expected = y.clone();
    reference.gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, expected, yOff);
    double[] magnitude = abs(y);
    reference.gemvKernel(
        trans,
        m,
        n,
        Math.abs(alpha),
        abs(a),
        aOff,
        lda,
        abs(x),
        xOff,
        Math.abs(beta),
        magnitude,
        yOff);
    tested.gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, y, yOff);
    int length = trans ? n : m;
    compare(
        "gemv",
        y.length,
        i -> y[i],
        i -> expected[i],
        i -> magnitude[i],
        Agreement.DOUBLE_UNIT,
        trans ? m : n,
        yOff,
        1,
        (i, j) -> i < length && j == 0);
  }

  @Override
  protected void gemvKernel(
      boolean trans,
      int m,
      int n,
      float alpha,
      float[] a,
      int aOff,
      int lda,
      float[] x,
      int xOff,
      float beta,
      float[] y,
      int yOff) {
    float[] expected = y.clone();
    reference.gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, expected, yOff);
    float[] magnitude = abs(y);
    reference.gemvKernel(
        trans,
        m,
        n,
        Math.abs(alpha),
        abs(a),
        aOff,
        lda,
        abs(x),
        xOff,
        Math.abs(beta),
        magnitude,
        yOff);
    tested.gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, y, yOff);
    int length = trans ? n : m;
    compare(
        "sgemv",
        y.length,
        i -> y[i],
        i -> expected[i],
        i -> magnitude[i],
        Agreement.FLOAT_UNIT,
        trans ? m : n,
        yOff,
        1,
        (i, j) -> i < length && j == 0);
  }

  @Override
  protected void syrkKernel(
      boolean trans,
      int n,
      int k,
      double alpha,
      double[] a,
      int aOff,
      int lda,
      double beta,
      double[] c,
      int cOff,
      int ldc) {
    double[] expected = c.clone();
    reference.syrkKernel(trans, n, k, alpha, a, aOff, lda, beta, expected, cOff, ldc);
    double[] magnitude = abs(c);
    reference.syrkKernel(
        trans, n, k, Math.abs(alpha), abs(a), aOff, lda, Math.abs(beta), magnitude, cOff, ldc);
    tested.syrkKernel(trans, n, k, alpha, a, aOff, lda, beta, c, cOff, ldc);
    compare(
        "syrk",
        c.length,
        i -> c[i],
        i -> expected[i],
        i -> magnitude[i],
        Agreement.DOUBLE_UNIT,
        k,
        cOff,
        ldc,
        (i, j) -> i < n && j <= i);
  }

  @Override
  protected void syrkKernel(
      boolean trans,
      int n,
      int k,
      float alpha,
      float[] a,
      int aOff,
      int lda,
      float beta,
      float[] c,
      int cOff,
      int ldc) {
    float[] expected = c.clone();
    reference.syrkKernel(trans, n, k, alpha, a, aOff, lda, beta, expected, cOff, ldc);
    float[] magnitude = abs(c);
    reference.syrkKernel(
        trans, n, k, Math.abs(alpha), abs(a), aOff, lda, Math.abs(beta), magnitude, cOff, ldc);
    tested.syrkKernel(trans, n, k, alpha, a, aOff, lda, beta, c, cOff, ldc);
    compare(
        "ssyrk",
        c.length,
        i -> c[i],
        i -> expected[i],
        i -> magnitude[i],
        Agreement.FLOAT_UNIT,
        k,
        cOff,
        ldc,
        (i, j) -> i < n && j <= i);
  }

  @Override
  protected int choleskyFactorKernel(int n, double[] a, int aOff, int lda) {
    double[] original = a.clone();
    int expected = reference.choleskyFactorKernel(n, original.clone(), aOff, lda);
    int got = tested.choleskyFactorKernel(n, a, aOff, lda);
    if ((got == 0) != (expected == 0)) {
      throw new KernelDisagreementException(
          "check mode: "
              + name
              + " choleskyFactor "
              + (got == 0 ? "succeeded" : "failed at order " + got)
              + " but the scalar reference "
              + (expected == 0 ? "succeeded" : "failed at order " + expected));
    }
    if (got != 0) {
      return got;
    }
    // Backward error: (L L^T)_ij = A_ij within (n + 2) u sum_l |L_il L_jl| (Higham, Thm. 10.3).
    double[] product = new double[a.length];
    double[] magnitude = new double[a.length];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double sum = 0;
        double size = 0;
        for (int l = 0; l <= j; l++) {
          double t = a[aOff + i * lda + l] * a[aOff + j * lda + l];
          sum += t;
          size += Math.abs(t);
        }
        product[aOff + i * lda + j] = sum;
        magnitude[aOff + i * lda + j] = size;
      }
    }
    Region lower = (i, j) -> i < n && j <= i;
    for (int idx = 0; idx < a.length; idx++) {
      int rel = idx - aOff;
      boolean inside = rel >= 0 && lower.contains(rel / lda, rel % lda);
      Agreement.require(
          name,
          "choleskyFactor",
          idx,
          inside ? product[idx] : a[idx],
          original[idx],
          inside ? Agreement.sum(n, magnitude[idx], Agreement.DOUBLE_UNIT) : 0);
    }
    return 0;
  }

  @Override
  protected void choleskySolveKernel(
      int n, int nrhs, double[] l, int lOff, int ldl, double[] b, int bOff, int ldb) {
    double[] original = b.clone();
    tested.choleskySolveKernel(n, nrhs, l, lOff, ldl, b, bOff, ldb);
    // Backward error: L (L^T X) = B within (2n + 2) u |L| (|L^T| |X|) (Higham, Thm. 8.5, twice).
    for (int r = 0; r < nrhs; r++) {
      double[] y = new double[n];
      double[] yMagnitude = new double[n];
      for (int i = 0; i < n; i++) {
        for (int p = i; p < n; p++) {
          double lpi = l[lOff + p * ldl + i];
          double xp = b[bOff + p * ldb + r];
          y[i] += lpi * xp;
          yMagnitude[i] += Math.abs(lpi * xp);
        }
      }
      for (int i = 0; i < n; i++) {
        double sum = 0;
        double size = 0;
        for (int p = 0; p <= i; p++) {
          double lip = l[lOff + i * ldl + p];
          sum += lip * y[p];
          size += Math.abs(lip) * yMagnitude[p];
        }
        int at = bOff + i * ldb + r;
        Agreement.require(
            name,
            "choleskySolve",
            at,
            sum,
            original[at],
            Agreement.sum(2 * n, size, Agreement.DOUBLE_UNIT));
      }
    }
    for (int idx = 0; idx < b.length; idx++) {
      int rel = idx - bOff;
      if (rel < 0 || rel / ldb >= n || rel % ldb >= nrhs) {
        Agreement.require(name, "choleskySolve", idx, b[idx], original[idx], 0);
      }
    }
  }

  /**
   * Compares every element of a result array: within (terms + 2) units of the magnitude inside the
   * written region, exactly equal outside it.
   */
  private void compare(
      String op,
      int length,
      IntToDoubleFunction got,
      IntToDoubleFunction expected,
      IntToDoubleFunction magnitude,
      double unit,
      int terms,
      int off,
      int ld,
      Region region) {
    for (int idx = 0; idx < length; idx++) {
      int rel = idx - off;
      boolean inside = rel >= 0 && region.contains(rel / ld, rel % ld);
      Agreement.require(
          name,
          op,
          idx,
          got.applyAsDouble(idx),
          expected.applyAsDouble(idx),
          inside ? Agreement.sum(terms, magnitude.applyAsDouble(idx), unit) : 0);
    }
  }

  private static double[] abs(double[] v) {
    double[] r = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = Math.abs(v[i]);
    }
    return r;
  }

  private static float[] abs(float[] v) {
    float[] r = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = Math.abs(v[i]);
    }
    return r;
  }
}
