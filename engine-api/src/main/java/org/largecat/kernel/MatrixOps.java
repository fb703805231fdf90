package org.largecat.kernel;

/**
 * Dense matrix kernels, row-major with explicit leading dimensions (the distance between the starts
 * of consecutive rows), as CBLAS does with {@code CblasRowMajor}. The products come in double and
 * in float storage; a float product accumulates in at least float precision (the scalar reference
 * accumulates in double and rounds each result to float once), within the bounds of {@link
 * Agreement}.
 */
public abstract class MatrixOps {

  /**
   * C = alpha * op(A) * op(B) + beta * C with C m x n, op(A) m x k, op(B) k x n; op(X) is X or its
   * transpose. When beta is 0, C is not read (NaN in C does not propagate).
   */
  public final void gemm(
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
    checkGemm(
        transA,
        transB,
        m,
        n,
        k,
        Checks.length("gemm", "a", a),
        aOff,
        lda,
        Checks.length("gemm", "b", b),
        bOff,
        ldb,
        Checks.length("gemm", "c", c),
        cOff,
        ldc);
    gemmKernel(transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
  }

  /** The double {@code gemm} above, in float storage. */
  public final void gemm(
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
    checkGemm(
        transA,
        transB,
        m,
        n,
        k,
        Checks.length("gemm", "a", a),
        aOff,
        lda,
        Checks.length("gemm", "b", b),
        bOff,
        ldb,
        Checks.length("gemm", "c", c),
        cOff,
        ldc);
    gemmKernel(transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
  }

  /**
   * y = alpha * op(A) * x + beta * y with A m x n; y has m elements (n if trans), x the other
   * count. When beta is 0, y is not read.
   */
  public final void gemv(
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
    checkGemv(
        trans,
        m,
        n,
        Checks.length("gemv", "a", a),
        aOff,
        lda,
        Checks.length("gemv", "x", x),
        xOff,
        Checks.length("gemv", "y", y),
        yOff);
    gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, y, yOff);
  }

  /** The double {@code gemv} above, in float storage. */
  public final void gemv(
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
    checkGemv(
        trans,
        m,
        n,
        Checks.length("gemv", "a", a),
        aOff,
        lda,
        Checks.length("gemv", "x", x),
        xOff,
        Checks.length("gemv", "y", y),
        yOff);
    gemvKernel(trans, m, n, alpha, a, aOff, lda, x, xOff, beta, y, yOff);
  }

  /**
   * Lower triangle of C = alpha * A * A^T + beta * C (A n x k), or of alpha * A^T * A + beta * C
   * when trans (A k x n); C is n x n and its strict upper triangle is neither read nor written.
   */
  public final void syrk(
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
    checkSyrk(
        trans,
        n,
        k,
        Checks.length("syrk", "a", a),
        aOff,
        lda,
        Checks.length("syrk", "c", c),
        cOff,
        ldc);
    syrkKernel(trans, n, k, alpha, a, aOff, lda, beta, c, cOff, ldc);
  }

  /** The double {@code syrk} above, in float storage. */
  public final void syrk(
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
    checkSyrk(
        trans,
        n,
        k,
        Checks.length("syrk", "a", a),
        aOff,
        lda,
        Checks.length("syrk", "c", c),
        cOff,
        ldc);
    syrkKernel(trans, n, k, alpha, a, aOff, lda, beta, c, cOff, ldc);
  }

  /**
   * Factors the symmetric positive definite n x n matrix whose lower triangle is in A as L * L^T,
   * overwriting that lower triangle with L; the strict upper triangle is neither read nor written.
   *
   * @throws NotPositiveDefiniteException if a leading minor is not positive (A is then partly
   *     overwritten)
   */
  public final void choleskyFactor(int n, double[] a, int aOff, int lda) {
    Checks.count("choleskyFactor", "n", n);
    Checks.notNull("choleskyFactor", "a", a);
    Checks.matrix("choleskyFactor", "a", a.length, aOff, n, n, lda);
    int failedOrder = choleskyFactorKernel(n, a, aOff, lda);
    if (failedOrder != 0) {
      throw new NotPositiveDefiniteException(failedOrder);
    }
  }

  /**
   * Solves L * L^T * X = B in place for the n x nrhs matrix B, given the Cholesky factor L in the
   * lower triangle of l (as {@link #choleskyFactor} leaves it).
   */
  public final void choleskySolve(
      int n, int nrhs, double[] l, int lOff, int ldl, double[] b, int bOff, int ldb) {
    Checks.count("choleskySolve", "n", n);
    Checks.count("choleskySolve", "nrhs", nrhs);
    Checks.notNull("choleskySolve", "l", l);
    Checks.notNull("choleskySolve", "b", b);
    Checks.matrix("choleskySolve", "l", l.length, lOff, n, n, ldl);
    Checks.matrix("choleskySolve", "b", b.length, bOff, n, nrhs, ldb);
    choleskySolveKernel(n, nrhs, l, lOff, ldl, b, bOff, ldb);
  }

  private static void checkGemm(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      int aLength,
      int aOff,
      int lda,
      int bLength,
      int bOff,
      int ldb,
      int cLength,
      int cOff,
      int ldc) {
    Checks.count("gemm", "m", m);
    Checks.count("gemm", "n", n);
    Checks.count("gemm", "k", k);
    Checks.matrix("gemm", "a", aLength, aOff, transA ? k : m, transA ? m : k, lda);
    Checks.matrix("gemm", "b", bLength, bOff, transB ? n : k, transB ? k : n, ldb);
    Checks.matrix("gemm", "c", cLength, cOff, m, n, ldc);
  }

  private static void checkGemv(
      boolean trans,
      int m,
      int n,
      int aLength,
      int aOff,
      int lda,
      int xLength,
      int xOff,
      int yLength,
      int yOff) {
    Checks.count("gemv", "m", m);
    Checks.count("gemv", "n", n);
    Checks.matrix("gemv", "a", aLength, aOff, m, n, lda);
    Checks.span("gemv", "x", xLength, xOff, trans ? m : n);
    Checks.span("gemv", "y", yLength, yOff, trans ? n : m);
  }

  private static void checkSyrk(
      boolean trans, int n, int k, int aLength, int aOff, int lda, int cLength, int cOff, int ldc) {
    Checks.count("syrk", "n", n);
    Checks.count("syrk", "k", k);
    Checks.matrix("syrk", "a", aLength, aOff, trans ? k : n, trans ? n : k, lda);
    Checks.matrix("syrk", "c", cLength, cOff, n, n, ldc);
  }

  protected abstract void gemmKernel(
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
      int ldc);

  protected abstract void gemmKernel(
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
      int ldc);

  protected abstract void gemvKernel(
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
      int yOff);

  protected abstract void gemvKernel(
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
      int yOff);

  protected abstract void syrkKernel(
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
      int ldc);

  protected abstract void syrkKernel(
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
      int ldc);

  /**
   * Returns 0 on success, else the order (1-based) of the first leading minor that is not positive.
   */
  protected abstract int choleskyFactorKernel(int n, double[] a, int aOff, int lda);

  protected abstract void choleskySolveKernel(
      int n, int nrhs, double[] l, int lOff, int ldl, double[] b, int bOff, int ldb);
}
