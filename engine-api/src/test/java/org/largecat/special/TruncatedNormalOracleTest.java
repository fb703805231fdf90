package org.largecat.special;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.oracle.OracleTable;

/**
 * {@link TruncatedNormal} mean, variance and entropy on both sides against the mpmath table made by
 * engine-api/src/test/oracle/normal_oracle.py (from the paper's Eqs. D.1.4-D.1.8 at high
 * precision), evaluated through the special-function kernels of every available backend, plus
 * Remark D.1.2 and the sign of the variance far out.
 */
class TruncatedNormalOracleTest {
  private static final double RELATIVE = 1e-12;
  private static final double ENTROPY_ABSOLUTE = 1e-15;

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void meanMeetsItsContract(Kernels k) {
    check(
        k,
        "mean",
        ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE,
        ElementwiseFunction.TRUNCATED_NORMAL_MEAN_NEGATIVE,
        0);
  }

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void varianceMeetsItsContract(Kernels k) {
    check(
        k,
        "variance",
        ElementwiseFunction.TRUNCATED_NORMAL_VARIANCE_POSITIVE,
        ElementwiseFunction.TRUNCATED_NORMAL_VARIANCE_NEGATIVE,
        0);
  }

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void entropyMeetsItsContract(Kernels k) {
    check(
        k,
        "entropy",
        ElementwiseFunction.TRUNCATED_NORMAL_ENTROPY_POSITIVE,
        ElementwiseFunction.TRUNCATED_NORMAL_ENTROPY_NEGATIVE,
        ENTROPY_ABSOLUTE);
  }

  /**
   * The pair kernel: on [0, inf) the mean with log Phi, as the probit CAVI calls it (mean in
   * place); on (-inf, 0) the mean with the variance. Each output held to its own contract.
   */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void pairedMomentsMeetTheirContracts(Kernels k) {
    OracleTable table = OracleTable.load("truncnorm");
    for (int side : new int[] {1, -1}) {
      List<OracleTable.Row> rows =
          table.rows().stream().filter(r -> r.inputs()[1] == side).toList();
      int n = rows.size();
      double[] mu = new double[n];
      for (int i = 0; i < n; i++) {
        mu[i] = rows.get(i).inputs()[0];
      }
      double[] first = new double[n];
      double[] mean = mu.clone();
      ElementwiseFunction meanFunction =
          side == 1
              ? ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE
              : ElementwiseFunction.TRUNCATED_NORMAL_MEAN_NEGATIVE;
      ElementwiseFunction partner =
          side == 1
              ? ElementwiseFunction.NORMAL_LOG_CDF
              : ElementwiseFunction.TRUNCATED_NORMAL_VARIANCE_NEGATIVE;
      k.specialFunctions().applyPair(partner, meanFunction, n, mean, 0, first, 0, mean, 0);
      NormalOracleTest.Contract meanContract =
          new NormalOracleTest.Contract(meanFunction.label() + " (paired)", k, "mu", RELATIVE, 0);
      NormalOracleTest.Contract varianceContract =
          new NormalOracleTest.Contract(partner.label() + " (paired)", k, "mu", RELATIVE, 0);
      for (int i = 0; i < n; i++) {
        OracleTable.Row row = rows.get(i);
        meanContract.check(row.line(), mu[i], mean[i], row.outputs()[table.output("mean")]);
        if (side == -1) {
          varianceContract.check(
              row.line(), mu[i], first[i], row.outputs()[table.output("variance")]);
        }
      }
      meanContract.assertMet();
      if (side == -1) {
        varianceContract.assertMet();
      }
    }
  }

  /** Each side's rows in one batched call (at an offset), checked against the column's contract. */
  private static void check(
      Kernels k,
      String column,
      ElementwiseFunction positive,
      ElementwiseFunction negative,
      double absolute) {
    OracleTable table = OracleTable.load("truncnorm");
    for (int side : new int[] {1, -1}) {
      List<OracleTable.Row> rows =
          table.rows().stream().filter(r -> r.inputs()[1] == side).toList();
      int n = rows.size();
      int off = 7;
      double[] mu = new double[off + n];
      for (int i = 0; i < n; i++) {
        mu[off + i] = rows.get(i).inputs()[0];
      }
      double[] out = new double[n];
      ElementwiseFunction f = side == 1 ? positive : negative;
      k.specialFunctions().apply(f, n, mu, off, out, 0);
      NormalOracleTest.Contract contract =
          new NormalOracleTest.Contract(f.label(), k, "mu", RELATIVE, absolute);
      for (int i = 0; i < n; i++) {
        OracleTable.Row row = rows.get(i);
        contract.check(row.line(), mu[off + i], out[i], row.outputs()[table.output(column)]);
      }
      contract.assertMet();
    }
  }

  /**
   * Remark D.1.2: E[T^2] = Var + E^2 = 1 + mu E. Computed variance and mean (exact sum in
   * BigDecimal) against 1 + mu E with the oracle's E, over the contract range; Var and E^2 are both
   * positive, so the relative error is at most the variance's plus twice the mean's.
   */
  @Test
  void secondMomentIsOnePlusMuTimesMean() {
    OracleTable table = OracleTable.load("truncnorm");
    for (OracleTable.Row row : table.rows()) {
      double mu = row.inputs()[0];
      if (!(Math.abs(mu) <= 1e6)) {
        continue;
      }
      TruncationSide side = TruncationSide.ofSign((int) row.inputs()[1]);
      BigDecimal mean = new BigDecimal(TruncatedNormal.mean(mu, side));
      BigDecimal secondMoment =
          new BigDecimal(TruncatedNormal.variance(mu, side)).add(mean.multiply(mean));
      BigDecimal exact =
          BigDecimal.ONE.add(
              new BigDecimal(mu).multiply(row.outputs()[table.output("mean")].value()));
      double rel =
          secondMoment.subtract(exact).abs().divide(exact, MathContext.DECIMAL64).doubleValue();
      assertTrue(
          rel <= 3 * RELATIVE,
          "line "
              + row.line()
              + ": mu="
              + mu
              + " side "
              + side
              + ": Var + E^2 = "
              + secondMoment
              + " but 1 + mu E = "
              + exact
              + " (rel err "
              + rel
              + ")");
    }
  }

  /** The variance is positive for every mu but NaN, far beyond where the contract ends. */
  @Test
  void varianceIsPositiveEverywhere() {
    double[] mus = {1e6, 1e10, 6.7e153, 1e160, 1e200, Double.MAX_VALUE, Double.POSITIVE_INFINITY};
    for (double m : mus) {
      for (double mu : new double[] {m, -m}) {
        for (TruncationSide side : TruncationSide.values()) {
          double v = TruncatedNormal.variance(mu, side);
          assertTrue(v > 0, "variance(" + mu + ", " + side + ") = " + v);
        }
      }
    }
  }
}
