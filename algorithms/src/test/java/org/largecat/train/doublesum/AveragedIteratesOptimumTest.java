package org.largecat.train.doublesum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.fit.Fit;
import org.largecat.fit.Fitter;
import org.largecat.model.LinearModel;
import org.largecat.train.Method;

/**
 * U-max under the defaults with a user-set ridge, against the exact optimum of the same objective
 * computed by an independent solver: {@code ridge_optimum.py} (scipy's L-BFGS and scikit-learn's
 * multinomial logistic regression, which agree) on the data of {@code largecat data synth softmax
 * --rows 4000 --columns 15 --classes 30 --seed 11}, a problem no setting was tuned on. Its output
 * is {@code ridge-optimum.properties}; the script's docstring says how to run it again.
 */
class AveragedIteratesOptimumTest {
  private static final Dataset DATA = SyntheticData.linearSoftmax(4_000, 15, 30, 0.5, 1, 11).data();

  private static Properties expected() throws IOException {
    Properties expected = new Properties();
    try (InputStream in =
        AveragedIteratesOptimumTest.class.getResourceAsStream("ridge-optimum.properties")) {
      expected.load(in);
    }
    return expected;
  }

  @Test
  void umaxWithDefaultsEndsWithin2PercentOfTheIndependentOptimum() throws IOException {
    Properties expected = expected();
    double ridge = Double.parseDouble(expected.getProperty("ridge"));
    double bestObjective = Double.parseDouble(expected.getProperty("objective"));
    double bestLogLikelihood = Double.parseDouble(expected.getProperty("log_likelihood"));
    RidgeSoftmaxObjective objective = new RidgeSoftmaxObjective(DATA, ridge);
    // The data are those the script read: this project's own L-BFGS finds the same optimum.
    assertEquals(
        bestObjective,
        objective.valueAndGradient(objective.minimise(1e-9), null, null),
        1e-7 * bestObjective,
        "the data or the objective differ from the script's");

    long start = System.nanoTime();
    Fit fit = Fitter.softmax().method(Method.UMAX).ridge(ridge).fit(DATA);
    double seconds = (System.nanoTime() - start) * 1e-9;
    double[] logLoss = new double[1];
    double reached = objective.value((LinearModel) fit.model(), logLoss);
    double logLikelihood = -logLoss[0];
    System.out.printf(
        "umax: F/F* %.5f, log-likelihood %.6f / optimum's %.6f = %.5f, %.1f epochs, %s, %.2f s%n",
        reached / bestObjective,
        logLikelihood,
        bestLogLikelihood,
        logLikelihood / bestLogLikelihood,
        fit.epochs(),
        fit.stoppedBecause(),
        seconds);
    assertTrue(reached <= 1.02 * bestObjective, "F is " + reached / bestObjective + " F*");
    assertTrue(
        Math.abs(logLikelihood / bestLogLikelihood - 1) <= 0.02,
        "the training log-likelihood is " + logLikelihood / bestLogLikelihood + " the optimum's");
  }
}
