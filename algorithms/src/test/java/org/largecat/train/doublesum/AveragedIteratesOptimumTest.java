package org.largecat.train.doublesum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.fit.Fit;
import org.largecat.fit.Fitter;
import org.largecat.fit.Watched;
import org.largecat.model.LinearModel;
import org.largecat.train.Method;

/**
 * The averaged double-sum methods under the defaults with a user-set ridge, against the exact
 * optimum of the same objective computed by an independent solver: {@code ridge_optimum.py}
 * (scipy's L-BFGS and scikit-learn's multinomial logistic regression, which agree) on the data of
 * {@code largecat data synth softmax --rows R --columns D --classes K --seed S}, its output in
 * {@code ridge-optimum-RxDxK.properties}; the script's docstring says how to run it again. The
 * defaults (rates, tolerance) were chosen on the first four problems; the fifth, with a ten times
 * stronger ridge and K = 400, was added afterwards and run once, with no setting changed for it.
 */
class AveragedIteratesOptimumTest {
  /**
   * The data of {@code largecat data synth softmax --rows R --columns D --classes K --seed S} and
   * the file of its independent optimum.
   */
  private record Problem(int rows, int columns, int classes, long seed) {
    Dataset data() {
      return SyntheticData.linearSoftmax(rows, columns, classes, 0.5, 1, seed).data();
    }

    String optimumFile() {
      return "ridge-optimum-" + rows + "x" + columns + "x" + classes + ".properties";
    }

    @Override
    public String toString() {
      return rows + " x " + columns + ", K = " + classes;
    }
  }

  static Stream<Problem> problems() {
    return Stream.of(
        new Problem(4_000, 15, 30, 11),
        new Problem(6_000, 25, 60, 23),
        new Problem(8_000, 20, 100, 31),
        new Problem(10_000, 12, 200, 41),
        new Problem(8_000, 10, 400, 43));
  }

  static Stream<Arguments> methodsAndProblems() {
    return problems()
        .flatMap(
            problem ->
                Stream.of(
                    Arguments.of(problem, Method.UMAX, 0.02),
                    Arguments.of(problem, Method.IMPLICIT_SGD, 0.005),
                    Arguments.of(problem, Method.IMPLICIT_SGD_BATCH, 0.005)));
  }

  private static Properties expected(String file) throws IOException {
    Properties expected = new Properties();
    try (InputStream in = AveragedIteratesOptimumTest.class.getResourceAsStream(file)) {
      expected.load(in);
    }
    return expected;
  }

  /** The data are those the script read: this project's own L-BFGS finds the same optimum. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("problems")
  void theDataAndObjectiveAreTheScripts(Problem problem) throws IOException {
    Properties expected = expected(problem.optimumFile());
    double bestObjective = Double.parseDouble(expected.getProperty("objective"));
    RidgeSoftmaxObjective objective =
        new RidgeSoftmaxObjective(
            problem.data(), Double.parseDouble(expected.getProperty("ridge")));
    assertEquals(
        bestObjective,
        objective.valueAndGradient(objective.minimise(1e-7), null, null),
        1e-7 * bestObjective,
        "the data or the objective differ from the script's");
  }

  @ParameterizedTest(name = "{1} on {0} within {2}")
  @MethodSource("methodsAndProblems")
  void theDefaultsEndNearTheIndependentOptimum(Problem problem, Method method, double within)
      throws IOException {
    Properties expected = expected(problem.optimumFile());
    double ridge = Double.parseDouble(expected.getProperty("ridge"));
    double bestObjective = Double.parseDouble(expected.getProperty("objective"));
    double bestLogLikelihood = Double.parseDouble(expected.getProperty("log_likelihood"));
    Dataset data = problem.data();
    RidgeSoftmaxObjective objective = new RidgeSoftmaxObjective(data, ridge);
    long start = System.nanoTime();
    Fit fit = Fitter.softmax().method(method).ridge(ridge).fit(data);
    double seconds = (System.nanoTime() - start) * 1e-9;
    double[] logLoss = new double[1];
    double reached = objective.value((LinearModel) fit.model(), logLoss);
    double logLikelihood = -logLoss[0];
    System.out.printf(
        "%s on %s: F/F* %.5f, log-likelihood %.6f / optimum's %.6f = %.5f, %.1f epochs, %s,"
            + " %.2f s%n",
        method.label(),
        problem.optimumFile(),
        reached / bestObjective,
        logLikelihood,
        bestLogLikelihood,
        logLikelihood / bestLogLikelihood,
        fit.epochs(),
        fit.stoppedBecause(),
        seconds);
    // The rule watched this objective on every row: its last value is F of the model returned.
    assertEquals(Watched.TRAINING_OBJECTIVE, fit.watched());
    assertEquals(data.rows(), fit.watchedRows());
    assertEquals(reached, -fit.watchedLogLikelihood(), 1e-6 * reached);
    assertTrue(reached <= (1 + within) * bestObjective, "F is " + reached / bestObjective + " F*");
    assertTrue(
        Math.abs(logLikelihood / bestLogLikelihood - 1) <= within,
        "the training log-likelihood is " + logLikelihood / bestLogLikelihood + " the optimum's");
  }
}
