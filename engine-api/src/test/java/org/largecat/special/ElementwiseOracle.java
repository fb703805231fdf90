package org.largecat.special;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoublePredicate;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;
import org.largecat.oracle.OracleError;
import org.largecat.oracle.OracleTable;

/**
 * Checks an elementwise function against its oracle table through a backend's kernels: the whole
 * table in one batched call (at offsets, so a backend's indexing is exercised), every row held to
 * the contract in ulps, and one summary line printed with the worst error and where it is.
 */
final class ElementwiseOracle {
  private ElementwiseOracle() {}

  /**
   * The worst error of f over the table, in ulps, after asserting that every row is within
   * contractUlps.
   */
  static double check(Kernels k, ElementwiseFunction f, String column, double contractUlps) {
    return check(k, f, column, contractUlps, x -> true, "");
  }

  /**
   * As above, over the rows whose input is in the region; the label names the region in the
   * summary.
   */
  static double check(
      Kernels k,
      ElementwiseFunction f,
      String column,
      double contractUlps,
      DoublePredicate region,
      String regionLabel) {
    return check(k, f, f.label(), 1, column, contractUlps, region, regionLabel);
  }

  /**
   * f at -x against the table of a function at x, for a function defined by that reflection (log(1
   * - sigma(x)) = log sigma(-x)); the negation is exact, so the table's truth is f's.
   */
  static double checkReflected(
      Kernels k, ElementwiseFunction f, String tableLabel, String column, double contractUlps) {
    return check(
        k, f, tableLabel, -1, column, contractUlps, x -> true, " (at -x, from " + tableLabel + ")");
  }

  private static double check(
      Kernels k,
      ElementwiseFunction f,
      String tableLabel,
      double inputSign,
      String column,
      double contractUlps,
      DoublePredicate region,
      String regionLabel) {
    OracleTable table = OracleTable.load(tableLabel);
    List<OracleTable.Row> rows =
        table.rows().stream().filter(r -> region.test(r.inputs()[0])).toList();
    int n = rows.size();
    int xOff = 3;
    int outOff = 1;
    double[] x = new double[xOff + n];
    for (int i = 0; i < n; i++) {
      x[xOff + i] = inputSign * rows.get(i).inputs()[0];
    }
    double[] out = new double[outOff + n];
    k.specialFunctions().apply(f, n, x, xOff, out, outOff);

    int truthColumn = table.output(column);
    String backend = k.backendOf(KernelFamily.SPECIAL_FUNCTIONS);
    List<String> failures = new ArrayList<>();
    double worst = 0;
    String worstAt = "nowhere";
    for (int i = 0; i < n; i++) {
      OracleTable.Row row = rows.get(i);
      OracleTable.Truth truth = row.outputs()[truthColumn];
      double got = out[outOff + i];
      double err = OracleError.ulps(got, truth);
      if (err > worst) {
        worst = err;
        worstAt = "x=" + row.inputs()[0] + " (line " + row.line() + ")";
      }
      if (!(err <= contractUlps)) {
        failures.add(
            f.label()
                + " ["
                + backend
                + "] line "
                + row.line()
                + ": x="
                + row.inputs()[0]
                + " got "
                + got
                + " truth "
                + truth
                + " error "
                + err
                + " ulp > "
                + contractUlps);
      }
    }
    System.out.printf(
        "oracle %s [%s]%s: max err %.3g ulp at %s over %d cases (contract %s ulp)%n",
        f.label(), backend, regionLabel, worst, worstAt, n, contractUlps);
    assertTrue(
        failures.isEmpty(),
        failures.size()
            + " cases beyond the contract:\n"
            + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
    return worst;
  }
}
