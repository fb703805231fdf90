package org.largecat.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;
import org.largecat.oracle.OracleError;
import org.largecat.oracle.OracleTable;

/**
 * {@link Normal#logCdf} and {@link Normal#millsRatio} against the mpmath tables made by
 * engine-api/src/test/oracle/normal_oracle.py, evaluated through the special-function kernels of
 * every available backend, and identities tying the two functions together.
 */
class NormalOracleTest {

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void logCdfMeetsItsContract(Kernels k) {
    OracleTable table = OracleTable.load("normal-logcdf");
    int n = table.rows().size();
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = table.rows().get(i).inputs()[0];
    }
    double[] out = new double[n];
    k.specialFunctions().apply(ElementwiseFunction.NORMAL_LOG_CDF, n, x, 0, out, 0);
    Contract contract = new Contract("normal-logcdf", k, "x", 1e-14, 0);
    for (int i = 0; i < n; i++) {
      OracleTable.Row row = table.rows().get(i);
      contract.check(row.line(), x[i], out[i], row.outputs()[table.output("logcdf")]);
    }
    contract.assertMet();
  }

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void millsRatioMeetsItsContract(Kernels k) {
    OracleTable table = OracleTable.load("normal-mills");
    int n = table.rows().size();
    // Offsets inside larger arrays, so a kernel that ignores them fails.
    int xOff = 3;
    int outOff = 5;
    double[] x = new double[xOff + n];
    for (int i = 0; i < n; i++) {
      x[xOff + i] = table.rows().get(i).inputs()[0];
    }
    double[] out = new double[outOff + n + 2];
    k.specialFunctions().apply(ElementwiseFunction.NORMAL_MILLS_RATIO, n, x, xOff, out, outOff);
    Contract contract = new Contract("normal-mills", k, "x", 1e-13, 0);
    for (int i = 0; i < n; i++) {
      OracleTable.Row row = table.rows().get(i);
      contract.check(
          row.line(), x[xOff + i], out[outOff + i], row.outputs()[table.output("mills")]);
    }
    contract.assertMet();
  }

  /**
   * log Phi from the pair kernel the probit CAVI calls (with the truncated-normal mean in place),
   * to the same contract.
   */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void logCdfPairedWithTheTruncatedMeanMeetsItsContract(Kernels k) {
    OracleTable table = OracleTable.load("normal-logcdf");
    int n = table.rows().size();
    int xOff = 2;
    double[] x = new double[xOff + n];
    for (int i = 0; i < n; i++) {
      x[xOff + i] = table.rows().get(i).inputs()[0];
    }
    double[] logCdf = new double[n + 1];
    double[] mean = x.clone();
    k.specialFunctions()
        .applyPair(
            ElementwiseFunction.NORMAL_LOG_CDF,
            ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE,
            n,
            mean,
            xOff,
            logCdf,
            1,
            mean,
            xOff);
    Contract contract = new Contract("normal-logcdf (paired)", k, "x", 1e-14, 0);
    for (int i = 0; i < n; i++) {
      OracleTable.Row row = table.rows().get(i);
      contract.check(row.line(), x[xOff + i], logCdf[1 + i], row.outputs()[table.output("logcdf")]);
    }
    contract.assertMet();
  }

  /**
   * log(1 - Phi(x)) = log Phi(-x) against the log-cdf table at -x, alone and paired with log Phi
   * (the CB probabilities' pair, whose second output is of the other side), in both orders.
   */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void logSurvivalMeetsItsContract(Kernels k) {
    OracleTable table = OracleTable.load("normal-logcdf");
    int n = table.rows().size();
    double[] x = new double[n];
    double[] minusX = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = table.rows().get(i).inputs()[0];
      minusX[i] = -x[i];
    }
    double[] alone = new double[n];
    double[] pairedSecond = new double[n];
    double[] logCdfPaired = new double[n];
    double[] other = new double[n];
    ElementwiseFunction logCdf = ElementwiseFunction.NORMAL_LOG_CDF;
    ElementwiseFunction logSurvival = ElementwiseFunction.NORMAL_LOG_SURVIVAL;
    k.specialFunctions().apply(logSurvival, n, minusX, 0, alone, 0);
    k.specialFunctions().applyPair(logCdf, logSurvival, n, minusX, 0, other, 0, pairedSecond, 0);
    k.specialFunctions().applyPair(logSurvival, logCdf, n, x, 0, other, 0, logCdfPaired, 0);
    Contract[] contracts = {
      new Contract("normal-logsf", k, "x", 1e-14, 0),
      new Contract("normal-logsf (paired, second)", k, "x", 1e-14, 0),
      new Contract("normal-logcdf (paired, second, after normal-logsf)", k, "x", 1e-14, 0)
    };
    double[][] got = {alone, pairedSecond, logCdfPaired};
    double[][] arguments = {minusX, minusX, x};
    for (int c = 0; c < contracts.length; c++) {
      for (int i = 0; i < n; i++) {
        OracleTable.Row row = table.rows().get(i);
        contracts[c].check(
            row.line(), arguments[c][i], got[c][i], row.outputs()[table.output("logcdf")]);
      }
      contracts[c].assertMet();
    }
  }

  /** Beyond the tables' last rows the true values are far below Double.MIN_VALUE. */
  @Test
  void farRightTailIsZero() {
    for (double x : new double[] {1e4, 1e10, 1e300, Double.MAX_VALUE, Double.POSITIVE_INFINITY}) {
      assertEquals(0.0, Normal.logCdf(x), 0.0, "logCdf(" + x + ")");
      assertEquals(0.0, Normal.millsRatio(x), 0.0, "millsRatio(" + x + ")");
    }
  }

  /**
   * Phi(x) + Phi(-x) = 1, with one term from each branch of logCdf. Allowed: one ulp of 1 for each
   * exp and half for the sum, plus what the contract lets through exp (|L| e^L times 1e-14 per
   * term).
   */
  @Test
  void cdfOfOppositeArgumentsSumsToOne() {
    for (int i = -600; i <= 600; i++) {
      double x = i / 100.0;
      double l1 = Normal.logCdf(x);
      double l2 = Normal.logCdf(-x);
      double sum = Math.exp(l1) + Math.exp(l2);
      double allowed =
          2.5 * Math.ulp(1.0) + 1e-14 * (Math.abs(l1) * Math.exp(l1) + Math.abs(l2) * Math.exp(l2));
      assertTrue(
          Math.abs(sum - 1) <= allowed,
          "Phi(" + x + ") + Phi(" + -x + ") = " + sum + ", off by more than " + allowed);
    }
  }

  /**
   * log(phi(x)/Phi(x)) = -x^2/2 - log(2 pi)/2 - log Phi(x). The right side is a difference of terms
   * up to |L| = |log Phi(x)|, so exp of it carries their contract error 1e-14 |L| plus a few ulps
   * of x^2/2; the millsRatio contract adds 1e-13.
   */
  @Test
  void millsRatioAgreesWithLogCdf() {
    for (int i = -300; i <= 300; i++) {
      double x = i / 10.0;
      double logCdf = Normal.logCdf(x);
      double halfSquare = 0.5 * x * x;
      double fromLogCdf = Math.exp(-halfSquare - Normal.HALF_LOG_2PI - logCdf);
      double mills = Normal.millsRatio(x);
      double allowed = 1e-13 + 1e-14 * Math.abs(logCdf) + 4 * Math.ulp(halfSquare + 1);
      assertTrue(
          Math.abs(mills - fromLogCdf) <= allowed * fromLogCdf,
          "millsRatio(" + x + ") = " + mills + " but exp(log phi - log Phi) = " + fromLogCdf);
    }
  }

  /**
   * One function's rows against its contract: relative error at most {@code relative}, loosened by
   * {@code absolute} near zero; where the truth is subnormal (or underflows) at most 2 units of
   * Double.MIN_VALUE. Collects every violation and the worst errors for a summary line.
   */
  static final class Contract {
    private static final double SUBNORMAL_ULPS = 2;
    private final String function;
    private final String backend;
    private final String input;
    private final double relative;
    private final double absolute;
    private final List<String> violations = new ArrayList<>();
    private double worstRelative;
    private String worstRelativeAt = "-";
    private double worstAbsolute;
    private String worstAbsoluteAt = "-";
    private double worstUlps;
    private String worstUlpsAt = "-";
    private int rows;

    Contract(String function, Kernels k, String input, double relative, double absolute) {
      this.function = function;
      this.backend = k.backendOf(KernelFamily.SPECIAL_FUNCTIONS);
      this.input = input;
      this.relative = relative;
      this.absolute = absolute;
    }

    void check(int line, double in, double got, OracleTable.Truth truth) {
      rows++;
      double rel = OracleError.relative(got, truth);
      double ulps = OracleError.ulps(got, truth);
      double magnitude = Math.abs(truth.rounded());
      String at = input + "=" + in;
      boolean met;
      if (truth.value() == null) {
        met = rel == 0; // NaN or an infinity, which got must match
      } else if (magnitude >= Double.MIN_NORMAL && relative * magnitude < absolute) {
        // Near a zero crossing only the absolute floor means anything.
        double abs = rel * magnitude;
        met = abs <= relative * magnitude + absolute;
        if (abs > worstAbsolute) {
          worstAbsolute = abs;
          worstAbsoluteAt = at;
        }
      } else {
        boolean subnormal = magnitude < Double.MIN_NORMAL;
        met = subnormal ? ulps <= SUBNORMAL_ULPS : rel <= relative + absolute / magnitude;
        if (!subnormal && rel > worstRelative) {
          worstRelative = rel;
          worstRelativeAt = at;
        }
        if (ulps > worstUlps) {
          worstUlps = ulps;
          worstUlpsAt = at;
        }
      }
      if (!met) {
        violations.add(
            String.format(
                "%s [%s] line %d: %s got %s, truth %s, rel err %.3g (%.3g ulps)",
                function, backend, line, at, got, truth, rel, ulps));
      }
    }

    void assertMet() {
      String bound =
          absolute == 0 ? "rel " + relative : "|err| <= " + relative + "|truth| + " + absolute;
      System.out.printf(
          "oracle %s [%s]: max rel err %.2g at %s, max %.2g ulps at %s%s (%d rows, contract %s, subnormal %s ulps)%n",
          function,
          backend,
          worstRelative,
          worstRelativeAt,
          worstUlps,
          worstUlpsAt,
          absolute == 0
              ? ""
              : String.format(", max abs err near zero %.2g at %s", worstAbsolute, worstAbsoluteAt),
          rows,
          bound,
          SUBNORMAL_ULPS);
      if (!violations.isEmpty()) {
        fail(
            violations.size()
                + " of "
                + rows
                + " rows break the contract:\n"
                + String.join("\n", violations));
      }
    }
  }
}
