package org.largecat.kernel;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.scalar.ScalarBackend;
import org.largecat.kernel.scalar.ScalarMatrixOps;
import org.largecat.kernel.scalar.ScalarSpecialFunctions;
import org.largecat.kernel.scalar.ScalarVectorOps;

/**
 * Check mode must catch a backend that is wrong by more than the bound, and pass one that is not.
 */
class CheckModeTest {

  /** A backend whose kernels are off by a chosen relative error. */
  private static final class SkewedBackend implements KernelBackend {
    private final double skew;

    SkewedBackend(double skew) {
      this.skew = skew;
    }

    @Override
    public String name() {
      return "skewed";
    }

    @Override
    public KernelFamilies load() {
      VectorOps vector =
          new ScalarVectorOps() {
            @Override
            protected double dotKernel(int n, float[] x, int xOff, float[] y, int yOff) {
              return super.dotKernel(n, x, xOff, y, yOff) * (1 + skew);
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
              super.scatterAxpyKernel(w, d, rows, rowsOff, count, coef, coefOff, x, xOff);
              w[rows[rowsOff] * d] *= (float) (1 + skew);
            }
          };
      SpecialFunctions special =
          new ScalarSpecialFunctions() {
            @Override
            protected void applyKernel(
                ElementwiseFunction f, int n, double[] x, int xOff, double[] out, int outOff) {
              super.applyKernel(f, n, x, xOff, out, outOff);
              out[outOff + n - 1] *= 1 + skew;
            }
          };
      MatrixOps matrix =
          new ScalarMatrixOps() {
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
              super.gemmKernel(
                  transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
              c[cOff] *= 1 + skew;
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
              super.gemmKernel(
                  transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
              c[cOff + ldc + 1] *= (float) (1 + skew);
            }

            @Override
            protected int choleskyFactorKernel(int n, double[] a, int aOff, int lda) {
              int info = super.choleskyFactorKernel(n, a, aOff, lda);
              a[aOff + (n - 1) * lda] *= 1 + skew;
              return info;
            }
          };
      return new KernelFamilies(vector, special, null, matrix);
    }
  }

  private static Kernels checked(double skew) {
    BackendCatalog catalog =
        BackendCatalog.of(List.of(new ScalarBackend(), new SkewedBackend(skew)));
    Kernels k = Kernels.select(catalog, "skewed", true);
    assertTrue(k.checked());
    assertEquals("skewed", k.backendOf(KernelFamily.VECTOR_OPS));
    return k;
  }

  private static final float[] X = {1, 2, 3, 4, 5, 6, 7, 8};
  private static final double[] A = {4, 0, 2, 3};

  @Test
  void aWrongDotProductIsCaught() {
    KernelDisagreementException e =
        assertThrows(
            KernelDisagreementException.class, () -> checked(1e-5).vectorOps().dot(8, X, 0, X, 0));
    assertTrue(e.getMessage().contains("skewed dot"), e.getMessage());
    assertDoesNotThrow(() -> checked(1e-15).vectorOps().dot(8, X, 0, X, 0));
  }

  @Test
  void aWrongScatterIsCaught() {
    float[] w = new float[16];
    assertThrows(
        KernelDisagreementException.class,
        () ->
            checked(1e-5)
                .vectorOps()
                .scatterAxpy(w, 2, 8, new int[] {1}, 0, 1, new float[] {1}, 0, X, 0));
  }

  @Test
  void aWrongSpecialFunctionValueIsCaughtAndNamed() {
    double[] x = {0.5, 1.5, 2.5};
    KernelDisagreementException e =
        assertThrows(
            KernelDisagreementException.class,
            () ->
                checked(1e-11)
                    .specialFunctions()
                    .apply(ElementwiseFunction.EXP, 3, x, 0, new double[3], 0));
    assertTrue(e.getMessage().contains("exp element 2"), e.getMessage());
    assertDoesNotThrow(
        () ->
            checked(1e-15)
                .specialFunctions()
                .apply(ElementwiseFunction.EXP, 3, x, 0, new double[3], 0));
  }

  @Test
  void aWrongProductOrFactorIsCaught() {
    double[] c = new double[4];
    assertThrows(
        KernelDisagreementException.class,
        () ->
            checked(1e-9).matrixOps().gemm(false, false, 2, 2, 2, 1, A, 0, 2, A, 0, 2, 0, c, 0, 2));
    KernelDisagreementException single =
        assertThrows(
            KernelDisagreementException.class,
            () ->
                checked(1e-5)
                    .matrixOps()
                    .gemm(false, false, 2, 2, 2, 1, X, 0, 2, X, 4, 2, 0, new float[4], 0, 2));
    assertTrue(single.getMessage().contains("sgemm element 3"), single.getMessage());
    assertDoesNotThrow(
        () ->
            checked(1e-8)
                .matrixOps()
                .gemm(false, false, 2, 2, 2, 1, X, 0, 2, X, 4, 2, 0, new float[4], 0, 2));
    assertThrows(
        KernelDisagreementException.class,
        () -> checked(1e-9).matrixOps().choleskyFactor(2, A.clone(), 0, 2));
    assertDoesNotThrow(() -> checked(1e-17).matrixOps().choleskyFactor(2, A.clone(), 0, 2));
  }
}
