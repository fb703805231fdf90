package org.largecat.kernel.blas;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.lapack.LAPACK;
import org.largecat.kernel.scalar.ScalarMatrixOps;
import org.netlib.util.intW;

/**
 * The matrix family on dev.ludovic.netlib's BLAS and LAPACK, which are column-major. A row-major
 * matrix with leading dimension ld, read column-major, is its own transpose with the same ld. So C
 * = op(A) op(B) is computed as C^T = op(B)^T op(A)^T (operands and m, n swapped, flags kept); y =
 * op(A) x uses the opposite transpose flag on the n x m column-major view; the row-major lower
 * triangle of a symmetric matrix is the column-major upper one (syrk and potrf with "U", and
 * potrf's U is our L^T); and the solve L L^T X = B, whose row-major B reads column-major as B^T,
 * becomes X^T U^T U = B^T: two triangular solves from the right, as LAPACK's potrs does from the
 * left.
 *
 * <p>Some valid calls go to the scalar reference instead, all of them cheap or rare: products with
 * no inner terms (netlib then rejects gemm's and syrk's empty operand, and BLAS gemv returns
 * without computing y = beta y), and matrices whose array ends before the padding of their last
 * row, which netlib's argument checks for gemv, syrk and trsm demand though the libraries never
 * read it.
 */
final class NetlibMatrixOps extends ScalarMatrixOps {
  private final BLAS blas;
  private final LAPACK lapack;

  NetlibMatrixOps(BLAS blas, LAPACK lapack) {
    this.blas = blas;
    this.lapack = lapack;
  }

  private static String flag(boolean trans) {
    return trans ? "T" : "N";
  }

  /**
   * Whether the array holds rows full rows of ld elements from offset, as netlib's checks demand.
   */
  private static boolean padded(int length, int offset, int rows, int ld) {
    return offset + (long) rows * ld <= length;
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
    if (k == 0) {
      super.gemmKernel(
          transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
    } else {
      blas.dgemm(
          flag(transB),
          flag(transA),
          n,
          m,
          k,
          alpha,
          b,
          bOff,
          ldb,
          a,
          aOff,
          lda,
          beta,
          c,
          cOff,
          ldc);
    }
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
    if (k == 0) {
      super.gemmKernel(
          transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
    } else {
      blas.sgemm(
          flag(transB),
          flag(transA),
          n,
          m,
          k,
          alpha,
          b,
          bOff,
          ldb,
          a,
          aOff,
          lda,
          beta,
          c,
          cOff,
          ldc);
    }
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
    if ((trans ? m : n) == 0 || !padded(a.length, aOff, m, lda)) {
      super.gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, y, yOff);
    } else {
      blas.dgemv(flag(!trans), n, m, alpha, a, aOff, lda, x, xOff, 1, beta, y, yOff, 1);
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
    if ((trans ? m : n) == 0 || !padded(a.length, aOff, m, lda)) {
      super.gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, y, yOff);
    } else {
      blas.sgemv(flag(!trans), n, m, alpha, a, aOff, lda, x, xOff, 1, beta, y, yOff, 1);
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
    if (k == 0 || !padded(a.length, aOff, trans ? k : n, lda) || !padded(c.length, cOff, n, ldc)) {
      super.syrkKernel(trans, n, k, alpha, a, aOff, lda, beta, c, cOff, ldc);
    } else {
      blas.dsyrk("U", flag(!trans), n, k, alpha, a, aOff, lda, beta, c, cOff, ldc);
    }
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
    if (k == 0 || !padded(a.length, aOff, trans ? k : n, lda) || !padded(c.length, cOff, n, ldc)) {
      super.syrkKernel(trans, n, k, alpha, a, aOff, lda, beta, c, cOff, ldc);
    } else {
      blas.ssyrk("U", flag(!trans), n, k, alpha, a, aOff, lda, beta, c, cOff, ldc);
    }
  }

  @Override
  protected int choleskyFactorKernel(int n, double[] a, int aOff, int lda) {
    intW info = new intW(0);
    lapack.dpotrf("U", n, a, aOff, lda, info);
    if (info.val < 0) {
      throw new IllegalStateException(
          "LAPACK dpotrf rejected argument " + -info.val + " (n = " + n + ", lda = " + lda + ")");
    }
    return info.val;
  }

  @Override
  protected void choleskySolveKernel(
      int n, int nrhs, double[] l, int lOff, int ldl, double[] b, int bOff, int ldb) {
    if (!padded(l.length, lOff, n, ldl) || !padded(b.length, bOff, n, ldb)) {
      super.choleskySolveKernel(n, nrhs, l, lOff, ldl, b, bOff, ldb);
    } else {
      blas.dtrsm("R", "U", "N", "N", nrhs, n, 1, l, lOff, ldl, b, bOff, ldb);
      blas.dtrsm("R", "U", "T", "N", nrhs, n, 1, l, lOff, ldl, b, bOff, ldb);
    }
  }
}
