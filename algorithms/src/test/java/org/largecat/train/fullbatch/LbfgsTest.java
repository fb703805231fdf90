package org.largecat.train.fullbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.largecat.train.LbfgsSettings;
import org.largecat.train.TrainingDivergedException;

/** The minimiser on functions with known minima, its caps, and its ways of failing. */
class LbfgsTest {
  private static final Lbfgs.Listener QUIET = (i, e, v, g, c, s) -> {};

  /** Tolerance on the gradient only. */
  private static LbfgsSettings gradientOnly(double tolerance) {
    return new LbfgsSettings(10, tolerance, 0, 10_000, 20_000, Double.POSITIVE_INFINITY);
  }

  private static double rosenbrock(double[] x, double[] g) {
    double a = 1 - x[0];
    double b = x[1] - x[0] * x[0];
    g[0] = -2 * a - 400 * x[0] * b;
    g[1] = 200 * b;
    return a * a + 100 * b * b;
  }

  @Test
  void findsTheMinimumOfRosenbrocksValley() {
    double[] x = {-1.2, 1};
    LbfgsResult r = Lbfgs.minimise(LbfgsTest::rosenbrock, x, gradientOnly(1e-10), QUIET);
    assertEquals(LbfgsResult.Outcome.GRADIENT_TOLERANCE, r.outcome(), r.toString());
    assertEquals(1, x[0], 1e-9);
    assertEquals(1, x[1], 1e-9);
    assertTrue(r.iterations() < 60 && r.evaluations() < 80, r.toString());
  }

  /** ½ Σ a_i x_i² with a_i from 1 to 10⁴: condition number 10⁴. */
  @Test
  void solvesAnIllConditionedQuadratic() {
    int n = 200;
    DifferentiableFunction quadratic =
        (x, g) -> {
          double f = 0;
          for (int i = 0; i < n; i++) {
            double a = Math.pow(1e4, i / (n - 1.0));
            g[i] = a * x[i];
            f += a * x[i] * x[i] / 2;
          }
          return f;
        };
    double[] x = TestProblems.randomParameters(n, 1, 5);
    LbfgsResult r = Lbfgs.minimise(quadratic, x, gradientOnly(1e-8), QUIET);
    assertTrue(r.outcome().converged(), r.toString());
    for (double xi : x) {
      assertEquals(0, xi, 1e-8);
    }
  }

  @Test
  void stopsAtTheMostIterationsOrEvaluations() {
    LbfgsResult byIterations =
        Lbfgs.minimise(
            LbfgsTest::rosenbrock,
            new double[] {-1.2, 1},
            gradientOnly(0).withMaxIterations(5),
            QUIET);
    assertEquals(LbfgsResult.Outcome.MAX_ITERATIONS, byIterations.outcome());
    assertEquals(5, byIterations.iterations());
    LbfgsResult byEvaluations =
        Lbfgs.minimise(
            LbfgsTest::rosenbrock,
            new double[] {-1.2, 1},
            gradientOnly(0).withMaxEvaluations(9),
            QUIET);
    assertEquals(LbfgsResult.Outcome.MAX_EVALUATIONS, byEvaluations.outcome());
    assertTrue(byEvaluations.evaluations() <= 9, byEvaluations.toString());
  }

  @Test
  void eachIterationIsReportedWithItsRelativeChange() {
    AtomicInteger reported = new AtomicInteger();
    LbfgsResult r =
        Lbfgs.minimise(
            LbfgsTest::rosenbrock,
            new double[] {-1.2, 1},
            gradientOnly(1e-6),
            (iteration, evaluations, value, gradientNorm, change, seconds) -> {
              assertEquals(reported.incrementAndGet(), iteration);
              assertTrue(change > 0, "L-BFGS lowers f at every iteration: " + change);
            });
    assertEquals(r.iterations(), reported.get());
  }

  @Test
  void aNonFiniteObjectiveNamesTheIteration() {
    AtomicInteger calls = new AtomicInteger();
    DifferentiableFunction overflows =
        (x, g) -> calls.incrementAndGet() > 4 ? Double.NaN : rosenbrock(x, g);
    TrainingDivergedException e =
        assertThrows(
            TrainingDivergedException.class,
            () -> Lbfgs.minimise(overflows, new double[] {-1.2, 1}, gradientOnly(0), QUIET));
    assertTrue(
        e.getMessage().matches("the objective became NaN at iteration \\d+ \\(evaluation 5\\).*"),
        e.getMessage());
    TrainingDivergedException atStart =
        assertThrows(
            TrainingDivergedException.class,
            () ->
                Lbfgs.minimise(
                    (x, g) -> {
                      g[0] = Double.POSITIVE_INFINITY;
                      return 0;
                    },
                    new double[1],
                    gradientOnly(0),
                    QUIET));
    assertTrue(
        atStart.getMessage().startsWith("the gradient became non-finite at the starting point"),
        atStart.getMessage());
  }

  /**
   * A gradient that contradicts f (here its sign is wrong) leaves the line search without a lower f
   * along either direction: that is said, not taken for convergence.
   */
  @Test
  void aLineSearchWithoutProgressIsNotConvergence() {
    DifferentiableFunction wrongGradient =
        (x, g) -> {
          g[0] = -x[0];
          return x[0] * x[0] / 2;
        };
    LbfgsResult r = Lbfgs.minimise(wrongGradient, new double[] {3}, LbfgsSettings.DEFAULT, QUIET);
    assertEquals(LbfgsResult.Outcome.NO_PROGRESS, r.outcome(), r.toString());
    assertTrue(!r.outcome().converged());
  }

  /**
   * f = 1 + 1e-6 x² rounded to 11 decimals, as a long sum is rounded: from x = 1 every step the
   * line search tries changes f by less than its rounding, though ‖∇f‖∞ = 2e-6 is above the
   * gradient tolerance. The quadratic model's decrease, 2e-12, is below the relative tolerance, so
   * the point counts as converged at f's noise floor.
   */
  @Test
  void aStallAtTheNoiseFloorWithASmallGradientIsConvergence() {
    DifferentiableFunction rounded =
        (x, g) -> {
          g[0] = 2e-6 * x[0];
          return Math.rint((1 + 1e-6 * x[0] * x[0]) * 1e11) / 1e11;
        };
    LbfgsResult r = Lbfgs.minimise(rounded, new double[] {1}, LbfgsSettings.DEFAULT, QUIET);
    assertEquals(LbfgsResult.Outcome.NOISE_FLOOR, r.outcome(), r.toString());
  }
}
