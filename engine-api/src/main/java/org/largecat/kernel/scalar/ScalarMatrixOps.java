package org.largecat.kernel.scalar;

import org.largecat.kernel.MatrixOps;

/**
 * Reference matrix kernels: textbook loops over strided row-major storage, fused multiply-adds,
 * sums accumulated in double. The products are written once, over {@link Elements}, for both
 * storage types; a float result is rounded to float once, at the end.
 */
public class ScalarMatrixOps extends MatrixOps {

  /** Array storage read and written as double, so one loop serves float and double matrices. */
  private interface Elements {
    double get(int index);

    void set(int index, double value);
  }

  private record Doubles(double[] array) implements Elements {
    @Override
    public double get(int index) {
      return array[index];
    }

    @Override
    public void set(int index, double value) {
      array[index] = value;
    }
  }

  private record Floats(float[] array) implements Elements {
    @Override
    public double get(int index) {
      return array[index];
    }

    @Override
    public void set(int index, double value) {
      array[index] = (float) value;
    }
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
    gemm(
        transA,
        transB,
        m,
        n,
        k,
        alpha,
        new Doubles(a),
        aOff,
        lda,
        new Doubles(b),
        bOff,
        ldb,
        beta,
        new Doubles(c),
        cOff,
        ldc);
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
    gemm(
        transA,
        transB,
        m,
        n,
        k,
        alpha,
        new Floats(a),
        aOff,
        lda,
        new Floats(b),
        bOff,
        ldb,
        beta,
        new Floats(c),
        cOff,
        ldc);
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
    gemv(
        trans,
        m,
        n,
        alpha,
        new Doubles(a),
        aOff,
        lda,
        new Doubles(x),
        xOff,
        beta,
        new Doubles(y),
        yOff);
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
    gemv(
        trans,
        m,
        n,
        alpha,
        new Floats(a),
        aOff,
        lda,
        new Floats(x),
        xOff,
        beta,
        new Floats(y),
        yOff);
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
    syrk(trans, n, k, alpha, new Doubles(a), aOff, lda, beta, new Doubles(c), cOff, ldc);
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
    syrk(trans, n, k, alpha, new Floats(a), aOff, lda, beta, new Floats(c), cOff, ldc);
  }

  private static void gemm(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      double alpha,
      Elements a,
      int aOff,
      int lda,
      Elements b,
      int bOff,
      int ldb,
      double beta,
      Elements c,
      int cOff,
      int ldc) {
    // op(A)[i][l] = a[aOff + i * aRow + l * aCol], op(B)[l][j] = b[bOff + l * bRow + j * bCol].
    int aRow = transA ? 1 : lda;
    int aCol = transA ? lda : 1;
    int bRow = transB ? 1 : ldb;
    int bCol = transB ? ldb : 1;
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        double sum = 0;
        for (int l = 0; l < k; l++) {
          sum = Math.fma(a.get(aOff + i * aRow + l * aCol), b.get(bOff + l * bRow + j * bCol), sum);
        }
        update(c, cOff + i * ldc + j, alpha, sum, beta);
      }
    }
  }

  private static void gemv(
      boolean trans,
      int m,
      int n,
      double alpha,
      Elements a,
      int aOff,
      int lda,
      Elements x,
      int xOff,
      double beta,
      Elements y,
      int yOff) {
    int rows = trans ? n : m;
    int cols = trans ? m : n;
    int aRow = trans ? 1 : lda;
    int aCol = trans ? lda : 1;
    for (int i = 0; i < rows; i++) {
      double sum = 0;
      for (int l = 0; l < cols; l++) {
        sum = Math.fma(a.get(aOff + i * aRow + l * aCol), x.get(xOff + l), sum);
      }
      update(y, yOff + i, alpha, sum, beta);
    }
  }

  private static void syrk(
      boolean trans,
      int n,
      int k,
      double alpha,
      Elements a,
      int aOff,
      int lda,
      double beta,
      Elements c,
      int cOff,
      int ldc) {
    int aRow = trans ? 1 : lda;
    int aCol = trans ? lda : 1;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double sum = 0;
        for (int l = 0; l < k; l++) {
          sum = Math.fma(a.get(aOff + i * aRow + l * aCol), a.get(aOff + j * aRow + l * aCol), sum);
        }
        update(c, cOff + i * ldc + j, alpha, sum, beta);
      }
    }
  }

  /** c[at] = alpha * sum + beta * c[at]; c[at] is not read when beta is 0. */
  private static void update(Elements c, int at, double alpha, double sum, double beta) {
    c.set(at, beta == 0 ? alpha * sum : Math.fma(alpha, sum, beta * c.get(at)));
  }

  @Override
  protected int choleskyFactorKernel(int n, double[] a, int aOff, int lda) {
    for (int j = 0; j < n; j++) {
      int rowJ = aOff + j * lda;
      double diagonal = a[rowJ + j];
      for (int l = 0; l < j; l++) {
        diagonal = Math.fma(-a[rowJ + l], a[rowJ + l], diagonal);
      }
      if (!(diagonal > 0) || diagonal == Double.POSITIVE_INFINITY) {
        return j + 1;
      }
      double ljj = Math.sqrt(diagonal);
      a[rowJ + j] = ljj;
      for (int i = j + 1; i < n; i++) {
        int rowI = aOff + i * lda;
        double sum = a[rowI + j];
        for (int l = 0; l < j; l++) {
          sum = Math.fma(-a[rowI + l], a[rowJ + l], sum);
        }
        a[rowI + j] = sum / ljj;
      }
    }
    return 0;
  }

  @Override
  protected void choleskySolveKernel(
      int n, int nrhs, double[] l, int lOff, int ldl, double[] b, int bOff, int ldb) {
    // Forward substitution L y = b, then back substitution L^T x = y, all right-hand sides at once.
    for (int i = 0; i < n; i++) {
      int rowL = lOff + i * ldl;
      int rowB = bOff + i * ldb;
      for (int p = 0; p < i; p++) {
        double lip = l[rowL + p];
        int rowP = bOff + p * ldb;
        for (int r = 0; r < nrhs; r++) {
          b[rowB + r] = Math.fma(-lip, b[rowP + r], b[rowB + r]);
        }
      }
      double lii = l[rowL + i];
      for (int r = 0; r < nrhs; r++) {
        b[rowB + r] /= lii;
      }
    }
    for (int i = n - 1; i >= 0; i--) {
      int rowB = bOff + i * ldb;
      for (int p = i + 1; p < n; p++) {
        double lpi = l[lOff + p * ldl + i];
        int rowP = bOff + p * ldb;
        for (int r = 0; r < nrhs; r++) {
          b[rowB + r] = Math.fma(-lpi, b[rowP + r], b[rowB + r]);
        }
      }
      double lii = l[lOff + i * ldl + i];
      for (int r = 0; r < nrhs; r++) {
        b[rowB + r] /= lii;
      }
    }
  }
}
