package org.largecat.kernel.blas;

import org.jblas.NativeBlas;
import org.largecat.kernel.scalar.ScalarMatrixOps;

/**
 * The matrix family on jblas, mapped from row-major to column-major as {@link NetlibMatrixOps}
 * explains. jblas exposes no syrk, so the symmetric product is a gemm into a scratch square whose
 * lower triangle is then copied into C: twice the flops, at gemm speed, and C's strict upper
 * triangle untouched. Nor does it expose potrs or trsm, so the Cholesky solve stays the scalar
 * reference's, as does a gemv with no inner terms, which BLAS skips without computing y = beta y.
 */
final class JblasMatrixOps extends ScalarMatrixOps {

  private static char flag(boolean trans) {
    return trans ? 'T' : 'N';
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
    NativeBlas.dgemm(
        flag(transB), flag(transA), n, m, k, alpha, b, bOff, ldb, a, aOff, lda, beta, c, cOff, ldc);
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
    NativeBlas.sgemm(
        flag(transB), flag(transA), n, m, k, alpha, b, bOff, ldb, a, aOff, lda, beta, c, cOff, ldc);
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
    if (trans ? m == 0 : n == 0) {
      super.gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, y, yOff);
    } else {
      NativeBlas.dgemv(flag(!trans), n, m, alpha, a, aOff, lda, x, xOff, 1, beta, y, yOff, 1);
    }
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
    if (trans ? m == 0 : n == 0) {
      super.gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, y, yOff);
    } else {
      NativeBlas.sgemv(flag(!trans), n, m, alpha, a, aOff, lda, x, xOff, 1, beta, y, yOff, 1);
    }
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
    int ld = Math.max(1, n);
    double[] square = new double[Math.multiplyExact(n, ld)];
    if (beta != 0) {
      copyLowerTriangle(n, c, cOff, ldc, square, 0, ld);
    }
    gemmKernel(trans, !trans, n, n, k, alpha, a, aOff, lda, a, aOff, lda, beta, square, 0, ld);
    copyLowerTriangle(n, square, 0, ld, c, cOff, ldc);
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
    int ld = Math.max(1, n);
    float[] square = new float[Math.multiplyExact(n, ld)];
    if (beta != 0) {
      copyLowerTriangle(n, c, cOff, ldc, square, 0, ld);
    }
    gemmKernel(trans, !trans, n, n, k, alpha, a, aOff, lda, a, aOff, lda, beta, square, 0, ld);
    copyLowerTriangle(n, square, 0, ld, c, cOff, ldc);
  }

  /**
   * Copies the lower triangle (diagonal included) of an n x n row-major matrix; float[] or
   * double[].
   */
  private static void copyLowerTriangle(
      int n, Object from, int fromOff, int fromLd, Object to, int toOff, int toLd) {
    for (int i = 0; i < n; i++) {
      System.arraycopy(from, fromOff + i * fromLd, to, toOff + i * toLd, i + 1);
    }
  }

  @Override
  protected int choleskyFactorKernel(int n, double[] a, int aOff, int lda) {
    int info = NativeBlas.dpotrf('U', n, a, aOff, lda);
    if (info < 0) {
      throw new IllegalStateException(
          "LAPACK dpotrf rejected argument " + -info + " (n = " + n + ", lda = " + lda + ")");
    }
    return info;
  }
}
