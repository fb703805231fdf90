package org.largecat.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;

/** PolyaGamma.mean against its 60-digit oracle table on every backend, and its shape. */
class PolyaGammaOracleTest {

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void meanWithinFourUlps(Kernels k) {
    ElementwiseOracle.check(k, ElementwiseFunction.POLYA_GAMMA_MEAN, "mean", 4);
  }

  /** The mean is 1/4 at 0, even, and decreasing in |c|. */
  @Test
  void evenAndDecreasing() {
    assertEquals(0.25, PolyaGamma.mean(0.0));
    assertEquals(0.25, PolyaGamma.mean(-0.0));
    assertEquals(0.0, PolyaGamma.mean(Double.POSITIVE_INFINITY));
    double[] cs = new SplittableRandom(31).doubles(3000, 0, 60).sorted().toArray();
    for (int i = 0; i < cs.length; i++) {
      assertEquals(PolyaGamma.mean(cs[i]), PolyaGamma.mean(-cs[i]), "even at c=" + cs[i]);
      if (i > 0) {
        assertTrue(
            PolyaGamma.mean(cs[i]) <= PolyaGamma.mean(cs[i - 1]),
            "decreasing between " + cs[i - 1] + " and " + cs[i]);
      }
    }
  }
}
