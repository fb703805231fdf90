package org.largecat.kernel.scalar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.kernel.Kernels;

/**
 * The row step on every backend against values worked out by hand, chosen so that every operation,
 * the square roots included, is exact in float: the step's definition, independent of any backend's
 * code.
 */
class RowStepTest {

  /**
   * Rows 1, 1 and 2 of a 3 x 2 table, rate 0.25, scale 2, no prior. Row 1's first step: γ = (4, 2),
   * s = 0.5·γ² + 0.5·(2, 14) = (9, 9), w = (1, 2) + 0.25·γ/(1 + 3) = (1.25, 2.125). Its second
   * reads the first's result: γ = (2, 2), s = γ² + 5·(9, 9) = (49, 49), w += 0.25·2/(1 + 7) =
   * (1.3125, 2.1875). Row 2, a first step (keep 0): γ = (3, −1), s = γ², w = (5, 6) + 0.25·γ/(1 +
   * |γ|) = (5.1875, 5.875). Row 0 is untouched.
   */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void adaptiveStepsAgreeWithHandWorkedValues(Kernels k) {
    float[] w = {0.5f, -0.5f, 1, 2, 5, 6};
    float[] s = {3, 3, 2, 14, 7, 0};
    float[] g = {2, 1, 1, 1, 1.5f, -0.5f};
    k.vectorOps()
        .rowStep(
            w,
            s,
            3,
            2,
            new int[] {1, 1, 2},
            0,
            3,
            g,
            0,
            new float[] {0.5f, 1, 1},
            new float[] {0.5f, 5, 0},
            0,
            0.25f,
            2,
            0);
    assertArrayEquals(new float[] {0.5f, -0.5f, 1.3125f, 2.1875f, 5.1875f, 5.875f}, w);
    assertArrayEquals(new float[] {3, 3, 49, 49, 9, 1}, s);
    assertArrayEquals(new float[6], g, "the gradients are cleared");
  }

  /**
   * Rows 0 and 2, plain, rate 0.5, scale 4, the prior's precision 0.25: γ = 4g − 0.25w, w += 0.5γ.
   * Row 0: γ = (4 − 0.125, 0 + 0.125), w = (0.5 + 1.9375, −0.5 + 0.0625). Row 2: γ = (2 − 1.25, −4
   * − 1.5), w = (5 + 0.375, 6 − 2.75).
   */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void plainStepWithThePriorAgreesWithHandWorkedValues(Kernels k) {
    float[] w = {0.5f, -0.5f, 1, 2, 5, 6};
    float[] g = {9, 1, 0, 0.5f, -1, 9};
    k.vectorOps()
        .rowStep(w, null, 3, 2, new int[] {0, 2}, 0, 2, g, 1, null, null, 0, 0.5f, 4, 0.25f);
    assertArrayEquals(new float[] {2.4375f, -0.4375f, 1, 2, 5.375f, 3.25f}, w);
    assertArrayEquals(new float[] {9, 0, 0, 0, 0, 9}, g, "the two rows' gradients are cleared");
  }
}
