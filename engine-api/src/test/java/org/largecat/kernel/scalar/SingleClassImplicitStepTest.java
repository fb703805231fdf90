package org.largecat.kernel.scalar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;
import org.largecat.oracle.OracleTable;
import org.largecat.special.LambertW;
import org.largecat.special.Logistic;

/**
 * The single-class Implicit SGD update: against its high-precision oracle table on every backend,
 * and checks that can fail on their own: the residual of g at the result, the evaluation count, the
 * small-step limit, NaN and aliasing.
 */
class SingleClassImplicitStepTest {
  /** |u - u*| <= U_CONTRACT max(1, |u*|): the ImplicitUpdates contract, floored at |u| = 1. */
  private static final double U_CONTRACT = 1e-12;

  /**
   * The step a inherits u's error through da/du = -a/(1 + a), so |a - a*| <= (U_CONTRACT max(1,
   * |u*|) / (1 + a*) + A_OWN) a*, plus 2 units of the last place where a* is subnormal.
   */
  private static final double A_OWN = 1e-15;

  private record Group(double eta, long datasetSize, long classCount) {}

  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void oracle(Kernels k) {
    OracleTable table = OracleTable.load("isgd-update");
    int uColumn = table.output("u");
    int aColumn = table.output("a");
    Map<Group, List<OracleTable.Row>> groups = new LinkedHashMap<>();
    for (OracleTable.Row row : table.rows()) {
      double[] in = row.inputs();
      groups
          .computeIfAbsent(new Group(in[3], (long) in[4], (long) in[5]), g -> new ArrayList<>())
          .add(row);
    }
    String backend = k.backendOf(KernelFamily.IMPLICIT_UPDATES);
    List<String> failures = new ArrayList<>();
    double worstU = 0;
    double worstA = 0;
    String worstUAt = "nowhere";
    String worstAAt = "nowhere";
    for (Map.Entry<Group, List<OracleTable.Row>> e : groups.entrySet()) {
      Group g = e.getKey();
      List<OracleTable.Row> rows = e.getValue();
      int n = rows.size();
      // Inputs and outputs at different offsets, so a backend's indexing is exercised.
      double[] z = new double[n + 2];
      double[] uOld = new double[n];
      double[] xNorm2 = new double[n + 1];
      for (int i = 0; i < n; i++) {
        double[] in = rows.get(i).inputs();
        z[2 + i] = in[0];
        uOld[i] = in[1];
        xNorm2[1 + i] = in[2];
      }
      double[] uNew = new double[n + 3];
      double[] step = new double[n];
      k.implicitUpdates()
          .softmaxSingleClass(
              n,
              z,
              2,
              uOld,
              0,
              xNorm2,
              1,
              g.eta(),
              g.datasetSize(),
              g.classCount(),
              uNew,
              3,
              step,
              0);
      for (int i = 0; i < n; i++) {
        OracleTable.Row row = rows.get(i);
        BigDecimal uTrue = row.outputs()[uColumn].value();
        BigDecimal aTrue = row.outputs()[aColumn].value();
        double uErr = absolute(uNew[3 + i], uTrue) / Math.max(1, uTrue.abs().doubleValue());
        double aAllowed =
            (U_CONTRACT * Math.max(1, uTrue.abs().doubleValue()) / (1 + aTrue.doubleValue())
                        + A_OWN)
                    * aTrue.doubleValue()
                + (aTrue.doubleValue() < Double.MIN_NORMAL ? 2 * Double.MIN_VALUE : 0);
        double aErr = absolute(step[i], aTrue);
        String where =
            "line "
                + row.line()
                + " (z="
                + row.inputs()[0]
                + ", u_old="
                + row.inputs()[1]
                + ", ||x||^2="
                + row.inputs()[2]
                + ", "
                + g
                + ")";
        if (uErr > worstU) {
          worstU = uErr;
          worstUAt = where;
        }
        if (aErr / aAllowed > worstA) {
          worstA = aErr / aAllowed;
          worstAAt = where + ", relative error " + aErr / aTrue.doubleValue();
        }
        if (!(uErr <= U_CONTRACT) || !(aErr <= aAllowed)) {
          failures.add(
              "isgd ["
                  + backend
                  + "] "
                  + where
                  + ": u="
                  + uNew[3 + i]
                  + " truth "
                  + uTrue
                  + " error "
                  + uErr
                  + "; a="
                  + step[i]
                  + " truth "
                  + aTrue
                  + " error "
                  + aErr
                  + " (allowed "
                  + aAllowed
                  + ")");
        }
      }
    }
    System.out.printf(
        "oracle isgd-update u [%s]: max err %.3g (relative, floor |u| = 1) at %s (contract %.0e)%n",
        backend, worstU, worstUAt, U_CONTRACT);
    System.out.printf(
        "oracle isgd-update a [%s]: max err %.3g of its allowance at %s%n",
        backend, worstA, worstAAt);
    assertTrue(
        failures.isEmpty(),
        failures.size()
            + " cases beyond the contract:\n"
            + String.join("\n", failures.subList(0, Math.min(20, failures.size()))));
  }

  private static double absolute(double got, BigDecimal truth) {
    return Double.isFinite(got)
        ? new BigDecimal(got).subtract(truth).abs().doubleValue()
        : Double.POSITIVE_INFINITY;
  }

  /**
   * A random problem over the whole supported range: eta 1e-8..1e4, N 1..1e12, K 2..1e9, |z -
   * u_old| up to 1e4.
   */
  private record Problem(
      double z, double uOld, double xNorm2, double eta, long datasetSize, long classCount) {
    static Problem random(SplittableRandom r) {
      double uOld = r.nextDouble(-50, 50);
      double z = uOld + (r.nextBoolean() ? 1 : -1) * Math.pow(10, r.nextDouble(-3, 4));
      double xNorm2 = r.nextInt(20) == 0 ? 0 : Math.pow(10, r.nextDouble(-4, 4));
      return new Problem(
          z,
          uOld,
          xNorm2,
          Math.pow(10, r.nextDouble(-8, 4)),
          (long) Math.pow(10, r.nextDouble(0, 12)),
          2 + (long) Math.pow(10, r.nextDouble(0, 9)));
    }

    SingleClassImplicitStep.Coefficients coefficients() {
      return SingleClassImplicitStep.Coefficients.of(eta, datasetSize, classCount);
    }
  }

  /**
   * At the returned u, g is zero to within what the u contract allows (|g| <= 1e-12 max(1, |u|) g')
   * plus the rounding of a plain evaluation of g here (1e-14 of the sum of its absolute terms).
   */
  @Test
  void residualVanishes() {
    SplittableRandom random = new SplittableRandom(41);
    for (int i = 0; i < 20000; i++) {
      Problem p = Problem.random(random);
      var c = p.coefficients();
      double u = SingleClassImplicitStep.newU(c, p.z(), p.uOld(), p.xNorm2());
      double a = SingleClassImplicitStep.step(c, p.z(), u, p.xNorm2());
      assertTrue(
          Double.isFinite(u) && Double.isFinite(a) && a >= 0, p + " gave u=" + u + ", a=" + a);
      double twoEtaN = 2 * p.eta() * p.datasetSize();
      double pull =
          p.xNorm2() == 0 || a < Double.MIN_NORMAL
              ? c.rate() * Math.exp(p.z() - u)
              : a / p.xNorm2();
      double[] terms = {-twoEtaN * Math.expm1(-u), -pull, 2 * u, -2 * p.uOld()};
      double g = 0;
      double magnitude = 0;
      for (double t : terms) {
        g += t;
        magnitude += Math.abs(t);
      }
      double slope = twoEtaN * Math.exp(-u) + pull / (1 + a) + 2;
      double allowed = U_CONTRACT * Math.max(1, Math.abs(u)) * slope + 1e-14 * magnitude;
      assertTrue(Math.abs(g) <= allowed, p + ": g(" + u + ") = " + g + " beyond " + allowed);
    }
  }

  /**
   * The number of evaluations of g is at most 1 + 2 ceil(log2(W / 1e-13)), W the width of the
   * paper's bracket: twice the bisection count of Proposition 4 plus the evaluation at u_old.
   */
  @Test
  void evaluationCountWithinTwiceTheBisectionBound() {
    SplittableRandom random = new SplittableRandom(42);
    int[] histogram = new int[300];
    int worst = 0;
    double worstRatio = 0;
    long total = 0;
    int problems = 20000;
    for (int i = 0; i < problems; i++) {
      Problem p = Problem.random(random);
      var c = p.coefficients();
      int[] evaluations = {0};
      double u =
          SingleClassImplicitStep.newU(c, p.z(), p.uOld(), p.xNorm2(), () -> evaluations[0]++);
      double width = paperBracketWidth(p, c, u);
      double bisections =
          Math.log(
                  Math.max(width, SingleClassImplicitStep.TOLERANCE)
                      / SingleClassImplicitStep.TOLERANCE)
              / Math.log(2);
      int bound = 1 + 2 * (int) Math.ceil(bisections);
      assertTrue(
          evaluations[0] <= bound,
          p + ": " + evaluations[0] + " evaluations > " + bound + " (bracket width " + width + ")");
      histogram[evaluations[0]]++;
      worst = Math.max(worst, evaluations[0]);
      worstRatio = Math.max(worstRatio, evaluations[0] / Math.max(1, bisections));
      total += evaluations[0];
    }
    StringBuilder counts = new StringBuilder();
    for (int e = 0; e <= worst; e++) {
      if (histogram[e] > 0) {
        counts.append(' ').append(e).append(':').append(histogram[e]);
      }
    }
    System.out.printf(
        "isgd evaluations of g over %d random problems: mean %.2f, max %d, max ratio to the"
            + " bisection count %.2f; histogram%s%n",
        problems, (double) total / problems, worst, worstRatio, counts);
  }

  /**
   * The width of the paper's bracket (App. F.1): which side depends on the sign of g(u_old), i.e.
   * on where u went.
   */
  private static double paperBracketWidth(
      Problem p, SingleClassImplicitStep.Coefficients c, double u) {
    if (u > p.uOld()) { // g(u_old) < 0
      return Logistic.softplus(c.logClassesMinusOne() + p.z()) - p.uOld();
    }
    return p.uOld() - (c.logClassesMinusOne() + p.z() - 2 * p.eta() * p.datasetSize() * p.xNorm2());
  }

  /**
   * For a small learning rate the implicit step is the explicit one to first order. The root solves
   * u - u_old = F(u) with F(u) = -eta N (1 - e^-u) + a(u) / (2 ||x||^2), so |u - u_old| <= S = eta
   * N (1 + e^-u + (K-1) e^(z-u)) (the explicit step's size, as a/(2||x||^2) = eta N (K-1)
   * e^(z-u-a)), and |u - u_old - F(u_old)| <= max |F'| |u - u_old| <= eta N (e^-u + (K-1) e^(z-u))
   * S. F(u_old) and a(u_old) are computed here straight from LambertW, not through the solver.
   */
  @Test
  void smallLearningRateMovesLikeExplicitSgd() {
    SplittableRandom random = new SplittableRandom(43);
    for (int i = 0; i < 2000; i++) {
      double uOld = random.nextDouble(0, 10);
      double z = uOld + random.nextDouble(-5, 2);
      double xNorm2 = Math.pow(10, random.nextDouble(-2, 2));
      double eta = 1e-9;
      long n = 1 + random.nextInt(100);
      long classes = 2 + random.nextInt(1000);
      var c = SingleClassImplicitStep.Coefficients.of(eta, n, classes);
      double u = SingleClassImplicitStep.newU(c, z, uOld, xNorm2);
      double a = SingleClassImplicitStep.step(c, z, u, xNorm2);

      double etaN = eta * n;
      double aOld = LambertW.w0OfExp(z - uOld + Math.log(2 * etaN * (classes - 1) * xNorm2));
      double explicitMove = -etaN * (1 - Math.exp(-uOld)) + aOld / (2 * xNorm2);
      double lipschitz =
          1.01 * etaN * (Math.exp(-uOld) + (classes - 1) * Math.exp(z - uOld)); // e^-u ~ e^-u_old
      double size = 1.01 * etaN * (1 + Math.exp(-uOld) + (classes - 1) * Math.exp(z - uOld));
      double solver = SingleClassImplicitStep.TOLERANCE * Math.max(1, uOld);
      String where =
          "z=" + z + ", u_old=" + uOld + ", ||x||^2=" + xNorm2 + ", N=" + n + ", K=" + classes;
      assertTrue(
          Math.abs(u - uOld) <= size + solver,
          "u moved " + (u - uOld) + " > " + size + " at " + where);
      assertEquals(explicitMove, u - uOld, lipschitz * size + solver, "u moved at " + where);
      assertEquals(aOld, a, (size + solver) * aOld + 8 * Math.ulp(aOld), "a at " + where);
    }
  }

  @Test
  void nanInZOrUOldGivesNanInBothOutputs() {
    ScalarImplicitUpdates updates = new ScalarImplicitUpdates();
    double[] z = {Double.NaN, 1.0, 1.0};
    double[] uOld = {0.5, Double.NaN, 0.5};
    double[] xNorm2 = {1.0, 1.0, 0.0};
    double[] uNew = new double[3];
    double[] step = new double[3];
    updates.softmaxSingleClass(3, z, 0, uOld, 0, xNorm2, 0, 0.1, 100, 10, uNew, 0, step, 0);
    for (int i = 0; i < 2; i++) {
      assertTrue(
          Double.isNaN(uNew[i]) && Double.isNaN(step[i]),
          "problem " + i + ": " + uNew[i] + ", " + step[i]);
    }
    assertTrue(Double.isFinite(uNew[2]), "||x||^2 = 0 is allowed");
    assertEquals(0.0, step[2], "a = 0 when ||x||^2 = 0");
  }

  @Test
  void outputsMayAliasInputs() {
    SplittableRandom random = new SplittableRandom(44);
    int n = 50;
    double[] z = random.doubles(n, -10, 10).toArray();
    double[] uOld = random.doubles(n, 0, 10).toArray();
    double[] xNorm2 = random.doubles(n, 0.1, 10).toArray();
    double[] uNew = new double[n];
    double[] step = new double[n];
    ScalarImplicitUpdates updates = new ScalarImplicitUpdates();
    updates.softmaxSingleClass(n, z, 0, uOld, 0, xNorm2, 0, 0.5, 1000, 100, uNew, 0, step, 0);
    updates.softmaxSingleClass(n, z, 0, uOld, 0, xNorm2, 0, 0.5, 1000, 100, uOld, 0, xNorm2, 0);
    for (int i = 0; i < n; i++) {
      assertEquals(uNew[i], uOld[i], "u in place at " + i);
      assertEquals(step[i], xNorm2[i], "a in place at " + i);
    }
  }

  @Test
  void extremeScalesStayFinite() {
    double[][] cases = {
      {1e4, 0, 1e-300},
      {-1e4, 0, 1e4},
      {0, -700, 1},
      {0, 700, 1e-320},
      {5e3, -5e3, 0},
      {-5e3, 5e3, 0}
    };
    for (double eta : new double[] {1e-8, 1e4}) {
      var c = SingleClassImplicitStep.Coefficients.of(eta, 1_000_000_000_000L, 1_000_000_000L);
      for (double[] p : cases) {
        double u = SingleClassImplicitStep.newU(c, p[0], p[1], p[2]);
        double a = SingleClassImplicitStep.step(c, p[0], u, p[2]);
        assertTrue(
            Double.isFinite(u) && a >= 0 && Double.isFinite(a),
            "eta="
                + eta
                + " z="
                + p[0]
                + " u_old="
                + p[1]
                + " ||x||^2="
                + p[2]
                + ": u="
                + u
                + ", a="
                + a);
      }
    }
  }
}
