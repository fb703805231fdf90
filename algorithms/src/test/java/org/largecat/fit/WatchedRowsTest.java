package org.largecat.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.LogSoftmax;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.TrainingDivergedException;

/**
 * What the stopping rule watches ({@link InMemoryRows#watch}, sized by {@link
 * StochasticFit#watchedRows}) against the softmax log-likelihood summed here in double from its
 * definition, ψ_y − log Σ_k e^{ψ_k} (A&R Eq. 1), on the generating model of a synthetic set.
 */
class WatchedRowsTest {
  private static final Kernels KERNELS = Kernels.of("scalar");
  private static final int COLUMNS = 5;
  private static final int CLASSES = 9;

  private static SyntheticSet set(int rows) {
    return SyntheticData.linearSoftmax(rows, COLUMNS, CLASSES, 0.8, 11);
  }

  private static LinearModel truth(SyntheticSet set) {
    return new LinearModel(Link.SOFTMAX, CLASSES, COLUMNS, set.weights(), set.biases());
  }

  private static SampledSpec options(Method method, int threads) {
    return SampledSpec.builder(method).threads(threads).seed(7).build();
  }

  /** The rows the rule watches when it trains {@code model} on {@code data} with A&R. */
  private static TrainingRows.Watch watch(LinearModel model, Dataset data, int threads) {
    SampledSpec options = options(Method.AR_SOFTMAX, threads);
    return new InMemoryRows(data)
        .watch(
            model,
            StochasticFit.watchedRows(data.rows(), data.classes(), options),
            options.seed(),
            threads,
            KERNELS);
  }

  private static double meanLogLikelihood(LinearModel model, Dataset data) {
    double sum = 0;
    double[] psi = new double[CLASSES];
    for (int n = 0; n < data.rows(); n++) {
      for (int k = 0; k < CLASSES; k++) {
        psi[k] = model.biases()[k];
        for (int j = 0; j < COLUMNS; j++) {
          psi[k] += (double) model.weights()[k * COLUMNS + j] * data.features().get(n, j);
        }
      }
      sum += LogSoftmax.of(psi, data.labels()[n]);
    }
    return sum / data.rows();
  }

  @Test
  void aSmallSetIsWatchedWhole() {
    SyntheticSet set = set(3_000);
    TrainingRows.Watch watched = watch(truth(set), set.data(), 2);
    assertEquals(3_000, watched.rows());
    double expected = meanLogLikelihood(truth(set), set.data());
    assertEquals(expected, watched.getAsDouble(), 1e-6 * Math.abs(expected));
  }

  @Test
  void aLargeSetIsWatchedOnTheSameFixedSampleEachTime() {
    SyntheticSet set = set(StochasticFit.MAX_WATCHED_ROWS + 2_500);
    LinearModel model = truth(set);
    TrainingRows.Watch watched = watch(model, set.data(), 2);
    assertEquals(StochasticFit.MAX_WATCHED_ROWS, watched.rows());
    Dataset sample = Preprocessing.sample(set.data(), StochasticFit.MAX_WATCHED_ROWS, 7);
    double expected = meanLogLikelihood(model, sample);
    assertEquals(expected, watched.getAsDouble(), 1e-6 * Math.abs(expected));
    double whole = meanLogLikelihood(model, set.data());
    assertTrue(expected != whole, "a sample, not the whole set");
    model.biases()[0] += 1; // the model is watched as it is trained, in place
    assertEquals(
        meanLogLikelihood(model, sample), watched.getAsDouble(), 1e-6 * Math.abs(expected));
  }

  @Test
  void aNonFiniteScoreIsADivergedRun() {
    SyntheticSet set = set(500);
    LinearModel model = truth(set);
    TrainingRows.Watch watched = watch(model, set.data(), 1);
    watched.getAsDouble();
    model.weights()[3] = Float.NaN;
    TrainingDivergedException e =
        assertThrows(TrainingDivergedException.class, watched::getAsDouble);
    assertTrue(
        e.getMessage()
            .startsWith(
                "a score of the rows the stopping rule watches"
                    + " became non-finite after epoch 2"),
        e.getMessage());
  }

  @Test
  void theSoftmaxSampledBoundAndAveragingMethodsAreWatchedOnRowsTheOthersOnTheirBound() {
    for (Method method : Method.values()) {
      boolean rows =
          switch (method) {
            case AR_SOFTMAX, OVE, EXACT_SOFTMAX_SGD, NCE, IMPORTANCE_SAMPLING -> true;
            case UMAX, IMPLICIT_SGD, IMPLICIT_SGD_BATCH -> true;
            default -> false;
          };
      assertEquals(rows, StochasticFit.watchesTrainingRows(method), method.label());
    }
  }

  /** Rows whose K scores each match the epoch's |S| + 1 each, within [MIN_ROWS, MAX_ROWS]. */
  @Test
  void theRowsWatchedCostAboutAsManyScoresAsAnEpoch() {
    SampledSpec sampled = options(Method.AR_SOFTMAX, 1).toBuilder().batch(500).sampled(100).build();
    assertEquals(5_735, StochasticFit.watchedRows(712_303, 12_544, sampled));
    assertEquals(1_000, StochasticFit.watchedRows(10_000, 100_000, sampled));
    assertEquals(10_000, StochasticFit.watchedRows(20_000, 20, sampled));
    assertEquals(600, StochasticFit.watchedRows(600, 100_000, sampled));
    SampledSpec exact =
        options(Method.EXACT_SOFTMAX_SGD, 1).toBuilder().batch(500).sampled(100).build();
    assertEquals(10_000, StochasticFit.watchedRows(10_000, 100_000, exact));
  }
}
