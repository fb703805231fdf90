package org.largecat.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;

/** Logistic against its 60-digit oracle tables on every backend, and identities that can fail. */
class LogisticOracleTest {

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void logSigmoidWithinTwoUlps(Kernels k) {
    ElementwiseOracle.check(k, ElementwiseFunction.LOG_SIGMOID, "logsigmoid", 2);
  }

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void logSurvivalWithinTwoUlps(Kernels k) {
    ElementwiseOracle.checkReflected(
        k, ElementwiseFunction.LOGISTIC_LOG_SURVIVAL, "log-sigmoid", "logsigmoid", 2);
  }

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void softplusWithinTwoUlps(Kernels k) {
    ElementwiseOracle.check(k, ElementwiseFunction.SOFTPLUS, "softplus", 2);
  }

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void logPdfWithinTwoUlps(Kernels k) {
    ElementwiseOracle.check(k, ElementwiseFunction.LOGISTIC_LOG_PDF, "logpdf", 2);
  }

  @Test
  void infinitiesExactly() {
    assertEquals(0.0, Logistic.softplus(Double.NEGATIVE_INFINITY));
    assertEquals(Double.POSITIVE_INFINITY, Logistic.softplus(Double.POSITIVE_INFINITY));
    assertEquals(Double.NEGATIVE_INFINITY, Logistic.logSigmoid(Double.NEGATIVE_INFINITY));
    assertEquals(0.0, Logistic.logSigmoid(Double.POSITIVE_INFINITY), 0.0);
    assertEquals(Double.NEGATIVE_INFINITY, Logistic.logPdf(Double.POSITIVE_INFINITY));
    assertEquals(Double.NEGATIVE_INFINITY, Logistic.logPdf(Double.NEGATIVE_INFINITY));
  }

  /**
   * softplus(x) - softplus(-x) = x, and log sigma(x) + log sigma(-x) is the log-density: the two
   * sides may differ only by the roundings of the parts.
   */
  @Test
  void identities() {
    SplittableRandom random = new SplittableRandom(21);
    for (int i = 0; i < 5000; i++) {
      double x = (random.nextBoolean() ? 1 : -1) * Math.pow(10, -5 + 8 * random.nextDouble());
      double plus = Logistic.softplus(x);
      double minus = Logistic.softplus(-x);
      assertEquals(
          x,
          plus - minus,
          3 * Math.ulp(Math.max(plus, minus)),
          "softplus(x) - softplus(-x) at x=" + x);
      double sum = Logistic.logSigmoid(x) + Logistic.logSigmoid(-x);
      assertEquals(
          sum, Logistic.logPdf(x), 3 * Math.ulp(sum), "log sigma(x) + log sigma(-x) at x=" + x);
      assertEquals(Logistic.logPdf(x), Logistic.logPdf(-x), "logPdf is even, at x=" + x);
      assertTrue(Logistic.logSigmoid(x) <= 0 && plus >= 0, "signs at x=" + x);
    }
  }
}
