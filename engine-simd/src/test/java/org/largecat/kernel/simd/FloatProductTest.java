package org.largecat.kernel.simd;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.MatrixOps;
import org.largecat.kernel.TestInputs;

/**
 * The simd float gemm against the scalar reference in check mode, where summing in float is most
 * likely to leave the float bound: operands sprinkled with adversarial values (±0, subnormals,
 * ±Inf, NaN, ±1e30, the largest float), then ordinary operands scaled so that float sums of their
 * products would overflow on the way to a finite result (1e19) or lose the products to the
 * subnormal range (1e-22); at shapes that leave a tail in every loop of the blocked kernel (rows
 * not a multiple of 4, columns not of 3 vectors, inner lengths past one panel). Only this backend
 * promises it: OpenBLAS's sgemm, behind blas, sums in float whatever the operands.
 */
class FloatProductTest {

  @Test
  void adversarialFloatProductsAgreeWithTheReference() {
    MatrixOps ops = Kernels.select(Kernels.catalog(), "simd", true).matrixOps();
    SplittableRandom random = new SplittableRandom(10);
    int[][] shapes = {{1, 1, 1}, {5, 23, 7}, {13, 49, 100}, {4, 97, 257}, {33, 25, 65}};
    for (int[] shape : shapes) {
      int m = shape[0];
      int n = shape[1];
      int inner = shape[2];
      for (boolean ta : new boolean[] {false, true}) {
        for (boolean tb : new boolean[] {false, true}) {
          int lda = (ta ? m : inner) + 1;
          int ldb = (tb ? inner : n) + 2;
          int ldc = n + 1;
          float[] a = TestInputs.uniformFloats(random, (ta ? inner : m) * lda);
          float[] b = TestInputs.uniformFloats(random, (tb ? n : inner) * ldb);
          float[] sprinkledA = a.clone();
          float[] sprinkledB = b.clone();
          TestInputs.sprinkle(random, sprinkledA);
          TestInputs.sprinkle(random, sprinkledB);
          float[] c = TestInputs.uniformFloats(random, m * ldc);
          ops.gemm(
              ta, tb, m, n, inner, 1.5f, sprinkledA, 0, lda, sprinkledB, 0, ldb, -0.5f, c, 0, ldc);
          ops.gemm(ta, tb, m, n, inner, -1f, sprinkledA, 0, lda, b, 0, ldb, 0f, c, 0, ldc);
          for (float scale : new float[] {1e19f, 1e-22f}) {
            float[] scaledA = a.clone();
            float[] scaledB = b.clone();
            for (int i = 0; i < scaledA.length; i++) {
              scaledA[i] *= scale;
            }
            for (int i = 0; i < scaledB.length; i++) {
              scaledB[i] *= scale;
            }
            ops.gemm(ta, tb, m, n, inner, 1f, scaledA, 0, lda, scaledB, 0, ldb, 0f, c, 0, ldc);
          }
        }
      }
    }
  }
}
