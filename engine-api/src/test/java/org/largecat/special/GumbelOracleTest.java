package org.largecat.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;

/** Gumbel against its 60-digit oracle tables on every backend, and its overflow edge. */
class GumbelOracleTest {

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void logCdfWithinTwoUlps(Kernels k) {
    ElementwiseOracle.check(k, ElementwiseFunction.GUMBEL_LOG_CDF, "logcdf", 2);
  }

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void logPdfWithinTwoUlps(Kernels k) {
    ElementwiseOracle.check(k, ElementwiseFunction.GUMBEL_LOG_PDF, "logpdf", 2);
  }

  /** -e^-x passes -max double at x = -log(max double) = -709.78: finite above it, -Inf below. */
  @Test
  void overflowEdge() {
    double edge = -Math.log(Double.MAX_VALUE);
    assertTrue(Double.isFinite(Gumbel.logCdf(Math.nextUp(edge))));
    assertEquals(Double.NEGATIVE_INFINITY, Gumbel.logCdf(Math.nextDown(Math.nextDown(edge))));
    assertEquals(Double.NEGATIVE_INFINITY, Gumbel.logPdf(-1e300));
    assertEquals(Double.NEGATIVE_INFINITY, Gumbel.logPdf(Double.POSITIVE_INFINITY));
    assertEquals(0.0, Gumbel.logCdf(Double.POSITIVE_INFINITY), 0.0);
  }
}
