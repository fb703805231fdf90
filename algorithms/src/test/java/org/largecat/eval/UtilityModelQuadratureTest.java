package org.largecat.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.largecat.kernel.Kernels;
import org.largecat.oracle.OracleTable;
import org.largecat.special.Logistic;
import org.largecat.special.Normal;

/**
 * UtilityModelQuadrature on the scalar backend: against the mpmath tables of utility_oracle.py
 * (probit and logistic), against the closed-form log-softmax (Gumbel), closed forms at K = 1 and 2,
 * the probabilities of all classes summing to 1, single-class and all-class calls agreeing, and the
 * messages for bad input. Each oracle test prints its worst error per case.
 */
class UtilityModelQuadratureTest {
  private static final Kernels SCALAR = Kernels.of("scalar");
  private static final int MAX_CLASSES = 10_000;
  private static final double LOG_P_BOUND = 1e-6;

  /** Cases of at least this many classes check the single-class call on a few groups only. */
  private static final int LARGE = 1000;

  @Test
  void gaussianWithinBoundOfMpmath() {
    checkAgainstOracle(NoiseDistribution.GAUSSIAN, "gaussian");
  }

  @Test
  void logisticWithinBoundOfMpmath() {
    checkAgainstOracle(NoiseDistribution.LOGISTIC, "logistic");
  }

  /**
   * Every class of every group with a truth, from the all-classes call, and the group's first class
   * from the single-class call (a few groups per case for large K).
   */
  private static void checkAgainstOracle(NoiseDistribution noise, String name) {
    TreeMap<Integer, List<double[]>> groups = new TreeMap<>();
    for (OracleTable.Row row : OracleTable.load("utility-psi").rows()) {
      groups.computeIfAbsent((int) row.inputs()[0], c -> new ArrayList<>()).add(row.inputs());
    }
    OracleTable truths = OracleTable.load("utility-logp-" + name);
    UtilityModelQuadrature quadrature = new UtilityModelQuadrature(SCALAR, noise, MAX_CLASSES);
    List<String> failures = new ArrayList<>();
    double worst = 0;
    String worstAt = "";
    int checked = 0;
    for (var entry : groups.entrySet()) {
      int c = entry.getKey();
      List<double[]> caseGroups = entry.getValue();
      int k = caseGroups.stream().mapToInt(g -> (int) g[3]).sum();
      int[] groupStart = new int[caseGroups.size() + 1];
      int off = 2;
      double[] psi = new double[off + k];
      for (int g = 0; g < caseGroups.size(); g++) {
        groupStart[g + 1] = groupStart[g] + (int) caseGroups.get(g)[3];
        Arrays.fill(psi, off + groupStart[g], off + groupStart[g + 1], caseGroups.get(g)[2]);
      }
      double[] all = new double[k];
      quadrature.logProbabilities(psi, off, k, all, 0);
      int allPasses = quadrature.lastPasses();
      double caseWorst = 0;
      int singles = 0;
      for (OracleTable.Row row : truths.rows()) {
        if ((int) row.inputs()[0] != c) {
          continue;
        }
        int g = (int) row.inputs()[1];
        OracleTable.Truth truth = row.outputs()[0];
        double err = 0;
        for (int y = groupStart[g]; y < groupStart[g + 1]; y++) {
          err = Math.max(err, absoluteError(all[y], truth));
        }
        if (k < LARGE || singles++ < 3) {
          err =
              Math.max(
                  err, absoluteError(quadrature.logProbability(psi, off, k, groupStart[g]), truth));
        }
        checked++;
        caseWorst = Math.max(caseWorst, err);
        if (!(err <= LOG_P_BOUND)) {
          failures.add(
              name
                  + " case "
                  + c
                  + " group "
                  + g
                  + " (K="
                  + k
                  + ", psi="
                  + caseGroups.get(g)[2]
                  + "): log p "
                  + all[groupStart[g]]
                  + " truth "
                  + truth
                  + " error "
                  + err);
        }
      }
      System.out.printf(
          "oracle utility %s case %d: K=%d, %d groups, %d passes for all K, worst |error in log p| %.2g%n",
          name, c, k, caseGroups.size(), allPasses, caseWorst);
      if (caseWorst > worst) {
        worst = caseWorst;
        worstAt = "case " + c;
      }
    }
    System.out.printf(
        "oracle utility %s: worst |error in log p| %.3g at %s over %d truths (bound %s)%n",
        name, worst, worstAt, checked, LOG_P_BOUND);
    assertTrue(
        failures.isEmpty(),
        failures.size() + " truths beyond the bound:\n" + String.join("\n", failures));
  }

  private static double absoluteError(double got, OracleTable.Truth truth) {
    return Double.isFinite(got)
        ? new BigDecimal(got).subtract(truth.value()).abs().doubleValue()
        : Double.POSITIVE_INFINITY;
  }

  /** Gumbel noise is the softmax (augment-and-reduce Sec. 2): log p = psi_y - logsumexp(psi). */
  @Test
  void gumbelMatchesLogSoftmax() {
    UtilityModelQuadrature quadrature =
        new UtilityModelQuadrature(SCALAR, NoiseDistribution.GUMBEL, MAX_CLASSES);
    double worst = 0;
    for (double[] psi : utilityVectors(new SplittableRandom(5))) {
      int k = psi.length;
      double max = Arrays.stream(psi).max().orElseThrow();
      double logZ = max + Math.log(Arrays.stream(psi).map(v -> Math.exp(v - max)).sum());
      double[] all = new double[k];
      quadrature.logProbabilities(psi, 0, k, all, 0);
      for (int y = 0; y < k; y++) {
        double err = Math.abs(all[y] - (psi[y] - logZ));
        worst = Math.max(worst, err);
        assertTrue(
            err <= LOG_P_BOUND,
            "K="
                + k
                + " class "
                + y
                + " psi_y="
                + psi[y]
                + ": "
                + all[y]
                + " vs "
                + (psi[y] - logZ));
      }
      int y = k - 1;
      double single = quadrature.logProbability(psi, 0, k, y);
      assertEquals(psi[y] - logZ, single, LOG_P_BOUND, "single class, K=" + k);
    }
    System.out.printf("gumbel vs log-softmax: worst |error in log p| %.3g%n", worst);
  }

  @ParameterizedTest
  @EnumSource(NoiseDistribution.class)
  void probabilitiesSumToOne(NoiseDistribution noise) {
    UtilityModelQuadrature quadrature = new UtilityModelQuadrature(SCALAR, noise, MAX_CLASSES);
    for (double[] psi : utilityVectors(new SplittableRandom(6))) {
      double[] all = new double[psi.length];
      quadrature.logProbabilities(psi, 0, psi.length, all, 0);
      double sum = Arrays.stream(all).map(Math::exp).sum();
      assertEquals(1, sum, 1e-9, noise + " K=" + psi.length);
    }
  }

  @ParameterizedTest
  @EnumSource(NoiseDistribution.class)
  void singleClassAgreesWithAllClasses(NoiseDistribution noise) {
    UtilityModelQuadrature quadrature = new UtilityModelQuadrature(SCALAR, noise, MAX_CLASSES);
    for (double[] psi : utilityVectors(new SplittableRandom(7))) {
      int k = psi.length;
      double[] all = new double[k + 1];
      quadrature.logProbabilities(psi, 0, k, all, 1);
      for (int y : new int[] {0, k / 2, k - 1}) {
        double single = quadrature.logProbability(psi, 0, k, y);
        assertEquals(all[1 + y], single, 1e-8, noise + " K=" + k + " class " + y);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(NoiseDistribution.class)
  void oneClassIsCertain(NoiseDistribution noise) {
    UtilityModelQuadrature quadrature = new UtilityModelQuadrature(SCALAR, noise, 4);
    double[] psi = {7, -3.5};
    assertEquals(0.0, quadrature.logProbability(psi, 1, 1, 0));
    double[] out = {Double.NaN, Double.NaN};
    quadrature.logProbabilities(psi, 0, 1, out, 1);
    assertEquals(0.0, out[1]);
  }

  /**
   * K = 2: p(y) = P(eps_other - eps_y < d) with d = psi_y - psi_other. The difference of two
   * standard normals is N(0, 2): p = Phi(d / sqrt 2). The difference of two standard logistics has
   * cdf e^d (e^d - 1 - d) / (e^d - 1)^2 (1/2 at d = 0), from int sigma'(u) sigma(u + d) du. Two
   * Gumbels differ by a standard logistic: p = sigma(d).
   */
  @Test
  void twoClassesMatchClosedForms() {
    UtilityModelQuadrature gaussian =
        new UtilityModelQuadrature(SCALAR, NoiseDistribution.GAUSSIAN, 2);
    UtilityModelQuadrature logistic =
        new UtilityModelQuadrature(SCALAR, NoiseDistribution.LOGISTIC, 2);
    UtilityModelQuadrature gumbel = new UtilityModelQuadrature(SCALAR, NoiseDistribution.GUMBEL, 2);
    for (double d : new double[] {0, 0.125, -0.5, 1, -3, 7.5, -12, 25, -40, 60, -60}) {
      double[] psi = {1.25 + d, 1.25};
      assertEquals(
          Normal.logCdf(d / Math.sqrt(2)),
          gaussian.logProbability(psi, 0, 2, 0),
          1e-9,
          "gaussian d=" + d);
      assertEquals(
          logLogisticDifferenceCdf(d),
          logistic.logProbability(psi, 0, 2, 0),
          1e-9,
          "logistic d=" + d);
      assertEquals(
          Logistic.logSigmoid(d), gumbel.logProbability(psi, 0, 2, 0), 1e-9, "gumbel d=" + d);
    }
  }

  /** log of e^d (e^d - 1 - d) / (e^d - 1)^2, written for d < 0 (its complement for d > 0). */
  private static double logLogisticDifferenceCdf(double d) {
    if (d == 0) {
      return Math.log(0.5);
    }
    if (d > 0) {
      return Math.log1p(-Math.exp(logLogisticDifferenceCdf(-d)));
    }
    double em1 = Math.expm1(d);
    return d + Math.log(em1 - d) - 2 * Math.log(-em1);
  }

  @Test
  void badInputsAreNamed() {
    UtilityModelQuadrature quadrature =
        new UtilityModelQuadrature(SCALAR, NoiseDistribution.GAUSSIAN, 8);
    double[] psi = {0, 1, Double.NaN, 2, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    IllegalArgumentException nan =
        assertThrows(IllegalArgumentException.class, () -> quadrature.logProbability(psi, 1, 3, 0));
    assertEquals("logProbability: psi[2] (class 1) = NaN is not finite", nan.getMessage());
    IllegalArgumentException inf =
        assertThrows(
            IllegalArgumentException.class,
            () -> quadrature.logProbabilities(psi, 3, 2, new double[2], 0));
    assertEquals("logProbabilities: psi[4] (class 1) = Infinity is not finite", inf.getMessage());
    IllegalArgumentException negInf =
        assertThrows(IllegalArgumentException.class, () -> quadrature.logProbability(psi, 5, 1, 0));
    assertEquals("logProbability: psi[5] (class 0) = -Infinity is not finite", negInf.getMessage());
    IllegalArgumentException y =
        assertThrows(IllegalArgumentException.class, () -> quadrature.logProbability(psi, 0, 2, 2));
    assertEquals("logProbability: y = 2 is not a class in [0, 2)", y.getMessage());
    assertThrows(IllegalArgumentException.class, () -> quadrature.logProbability(psi, 0, 2, -1));
    IllegalArgumentException k =
        assertThrows(IllegalArgumentException.class, () -> quadrature.logProbability(psi, 0, 0, 0));
    assertEquals("logProbability: k = 0 is not in [1, maxClasses = 8]", k.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> quadrature.logProbability(new double[9], 0, 9, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> quadrature.logProbability(psi, 5, 2, 0));
    IndexOutOfBoundsException out =
        assertThrows(
            IndexOutOfBoundsException.class,
            () -> quadrature.logProbabilities(psi, 0, 2, new double[2], 1));
    assertEquals(
        "logProbabilities: out has length 2 but the call writes 2 elements from offset 1",
        out.getMessage());
    assertThrows(NullPointerException.class, () -> quadrature.logProbability(null, 0, 1, 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> new UtilityModelQuadrature(SCALAR, NoiseDistribution.LOGISTIC, 0));
  }

  /**
   * Utility vectors in the regimes of the oracle: near each other, one class far above or below
   * (margins up to 60), ties, and outliers 300 away; K from 2 to 10^4.
   */
  private static List<double[]> utilityVectors(SplittableRandom random) {
    List<double[]> out = new ArrayList<>();
    out.add(new double[] {0.5, -0.25});
    out.add(gaussian(random, 3, 1));
    out.add(gaussian(random, 40, 2));
    out.add(gaussian(random, MAX_CLASSES, 1));
    for (double margin : new double[] {60, -60}) {
      double[] psi = gaussian(random, 50, 1);
      psi[7] =
          margin > 0
              ? 60 + Arrays.stream(psi).max().orElseThrow()
              : Arrays.stream(psi).min().orElseThrow() - 60;
      out.add(psi);
      double[] large = gaussian(random, 2000, 1);
      large[3] += margin;
      out.add(large);
    }
    double[] ties = new double[30];
    Arrays.fill(ties, 10, 30, -2);
    out.add(ties);
    double[] outliers = gaussian(random, 200, 1);
    outliers[0] = 300;
    outliers[1] = -300;
    out.add(outliers);
    return out;
  }

  private static double[] gaussian(SplittableRandom random, int k, double scale) {
    double[] psi = new double[k];
    for (int i = 0; i < k; i++) {
      double u = random.nextDouble();
      double v = random.nextDouble();
      psi[i] = scale * Math.sqrt(-2 * Math.log1p(-u)) * Math.cos(2 * Math.PI * v);
    }
    return psi;
  }
}
