package org.largecat.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.data.SyntheticData;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.ScoreModel;
import org.largecat.train.Method;
import org.largecat.train.TrainingRun;

/**
 * The full-batch solver's prior chosen on held-out rows: better on new rows than maximum likelihood
 * where that overfits, finite where the data are separable, kept when given, and the model the MAP
 * fit of all rows under the variance chosen.
 */
class PriorPathTest {

  private static double logLikelihood(ScoreModel model, Dataset data) {
    return Evaluation.evaluate(model, data, Kernels.get(), 1, 2).meanLogLikelihood();
  }

  /** 400 rows of 40 features and 8 classes: maximum likelihood overfits, the chosen prior less. */
  @Test
  void theChosenPriorBeatsMaximumLikelihoodOnNewRows() {
    Dataset all = SyntheticData.linearSoftmax(4_400, 40, 8, 0.5, 11).data();
    Dataset[] split = Preprocessing.holdOut(all, 4_000 / 4_400.0, 2);
    Dataset train = split[0];
    Dataset test = split[1];
    Fit chosen = Fitter.softmax().fit(train);
    Fit likelihood = Fitter.softmax().priorVariance(0).fit(train);
    double chosenTest = logLikelihood(chosen.model(), test);
    double likelihoodTest = logLikelihood(likelihood.model(), test);
    assertTrue(
        chosenTest > likelihoodTest + 0.05,
        "chosen prior " + chosen.prior() + ": " + chosenTest + " vs ML " + likelihoodTest);
    assertTrue(chosen.prior().variance() > 0);
    assertTrue(chosen.prior().path().size() >= 2, chosen.prior().toString());
    assertEquals(0, likelihood.prior().variance());
    assertEquals("given", likelihood.prior().reason());
    assertTrue(likelihood.prior().path().isEmpty());

    Fit refit = Fitter.softmax().priorVariance(chosen.prior().variance()).fit(train);
    assertEquals(
        refit.bound(),
        chosen.bound(),
        1e-9 * Math.abs(refit.bound()),
        "the model is the MAP fit of all rows under the variance chosen");
  }

  /**
   * Labels that a linear rule separates without error: the likelihood has no maximum, yet the
   * default fit converges, to finite weights.
   */
  @Test
  void separableDataEndWithAFiniteModel() {
    int rows = 2_000;
    int columns = 5;
    int classes = 4;
    SplittableRandom random = new SplittableRandom(7);
    float[][] rule = new float[classes][columns];
    for (float[] w : rule) {
      for (int j = 0; j < columns; j++) {
        w[j] = (float) random.nextGaussian();
      }
    }
    float[][] x = new float[rows][columns];
    int[] y = new int[rows];
    for (int n = 0; n < rows; n++) {
      double best = Double.NEGATIVE_INFINITY;
      for (int j = 0; j < columns; j++) {
        x[n][j] = (float) random.nextGaussian();
      }
      for (int k = 0; k < classes; k++) {
        double score = 0;
        for (int j = 0; j < columns; j++) {
          score += rule[k][j] * x[n][j];
        }
        if (score > best) {
          best = score;
          y[n] = k;
        }
      }
    }
    Fit fit = Fitter.softmax().fit(Dataset.dense(x, y, classes));
    assertEquals(Method.EXACT_SOFTMAX, fit.method());
    assertEquals(TrainingRun.Stop.CONVERGED, fit.stoppedBecause(), fit.prior().toString());
    assertTrue(fit.prior().variance() > 0, fit.prior().toString());
    float[] weights = ((org.largecat.model.LinearModel) fit.model()).weights();
    double largest = 0;
    for (float w : weights) {
      largest = Math.max(largest, Math.abs(w));
    }
    assertTrue(Double.isFinite(largest) && largest < 1e3, "largest weight " + largest);
  }

  /**
   * The stochastic methods' coarse path: on rows where maximum likelihood overfits, the prior
   * chosen after the maximum-likelihood run does better on new rows than that run alone, stopped
   * early on the same held-out rows.
   */
  @Test
  void theStochasticPathBeatsEarlyStoppingAloneOnNewRows() {
    Dataset all = SyntheticData.linearSoftmax(4_400, 40, 8, 0.5, 11).data();
    Dataset[] split = Preprocessing.holdOut(all, 4_000 / 4_400.0, 2);
    Fit chosen = Fitter.softmax().method(Method.EXACT_SOFTMAX_SGD).fit(split[0]);
    Fit early =
        Fitter.softmax()
            .method(Method.EXACT_SOFTMAX_SGD)
            .priorVariance(0)
            .validationFraction(chosen.watchedRows() / 400.0)
            .fit(split[0]);
    assertTrue(chosen.prior().path().size() >= 2, chosen.prior().toString());
    assertEquals(0, chosen.prior().path().getFirst().variance());
    double chosenTest = logLikelihood(chosen.model(), split[1]);
    double earlyTest = logLikelihood(early.model(), split[1]);
    assertTrue(
        chosenTest > earlyTest + 0.01,
        "chosen " + chosen.prior() + ": " + chosenTest + " vs early stopping alone " + earlyTest);
  }

  /**
   * A fit past twice the time the automatic choice estimated says so: the path stops at the
   * variance it has, and the final fit goes on to converge.
   */
  @Test
  void aFitPastTwiceItsEstimateSaysSoAndStopsThePath() {
    Dataset train = SyntheticData.linearSoftmax(4_000, 40, 8, 0.5, 11).data();
    List<String> notes = new ArrayList<>();
    Fitter settings =
        Fitter.softmax()
            .listener(
                new FitListener() {
                  @Override
                  public void note(String message) {
                    notes.add(message);
                  }
                });
    Fit fit = new FullBatchFit(settings, Kernels.get(), 1e-9).fit(train);
    assertEquals(1, fit.prior().path().size(), fit.prior().toString());
    assertTrue(
        fit.prior().reason().contains(" s, more than twice the 0 s estimated"),
        fit.prior().reason());
    assertEquals(
        1,
        notes.stream()
            .filter(n -> n.contains("more than twice the 0 s estimated: the fit goes on"))
            .count(),
        notes.toString());
    assertEquals(Boolean.TRUE, fit.converged());
  }

  /** Nothing held out: no variance can be chosen, and the fit is maximum likelihood. */
  @Test
  void nothingHeldOutIsMaximumLikelihood() {
    Dataset train = SyntheticData.linearSoftmax(3_000, 6, 5, 0.8, 3).data();
    Fit fit = Fitter.softmax().validationFraction(0).fit(train);
    assertEquals(0, fit.prior().variance());
    assertTrue(fit.prior().path().isEmpty());
    Fit given = Fitter.softmax().priorVariance(0).fit(train);
    assertEquals(Arrays.toString(fit.model().biases()), Arrays.toString(given.model().biases()));
  }
}
