package org.largecat.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.eval.Evaluation;
import org.largecat.fit.Trainers;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;

class LearningRateSearchTest {
  /** K = 20 classes over D = 10 features: 5% of it is 100 rows, separable by a large rate. */
  private static final Dataset DATA = SyntheticData.linearSoftmax(2_000, 10, 20, 1.0, 11).data();

  private static final Kernels KERNELS = Kernels.get();

  /** Implicit SGD at each rate, ×0.9 per epoch, for exactly 30 epochs; each fit kept. */
  private static LearningRateSearch.Result search(
      LearningRateSearch.Score score, LinearModel[] fits) {
    DoubleSumSpec options = DoubleSumSpec.builder(Method.IMPLICIT_SGD).threads(1).build();
    int[] next = {0};
    return LearningRateSearch.search(
        DATA,
        0.05,
        score,
        1,
        KERNELS,
        1,
        (subset, rate) -> {
          DoubleSumSpec atRate = options.toBuilder().learningRate(rate).epochDecay(0.9).build();
          LinearModel model = Trainers.initialModel(subset, atRate);
          fits[next[0]++] = model;
          try (Trainer trainer = Trainers.create(subset, model, atRate, KERNELS)) {
            for (int t = 30 * trainer.iterationsPerEpoch(); t > 0; t--) {
              trainer.step();
            }
          }
          return model;
        });
  }

  private static double wholeSetLogLikelihood(
      LearningRateSearch.Result result, LinearModel[] fits) {
    for (int g = 0; g < result.learningRates().length; g++) {
      if (result.learningRates()[g] == result.best()) {
        return Evaluation.evaluate(fits[g], DATA, KERNELS, 1, 1).meanLogLikelihood();
      }
    }
    throw new AssertionError("no best rate");
  }

  @Test
  void heldOutScoringPicksTheRateThatIsBetterOnTheWholeSet() {
    LinearModel[] trainingFits = new LinearModel[LearningRateSearch.GRID.length];
    LearningRateSearch.Result training = search(LearningRateSearch.Score.TRAINING, trainingFits);
    LinearModel[] heldOutFits = new LinearModel[LearningRateSearch.GRID.length];
    LearningRateSearch.Result heldOut = search(LearningRateSearch.Score.HELD_OUT, heldOutFits);
    assertEquals(100, training.rows());
    assertEquals(100, training.scoredRows());
    assertEquals(100, heldOut.scoredRows(), "as many rows outside the fraction as in it");
    assertTrue(
        heldOut.best() < training.best(),
        "held-out " + heldOut.best() + " against training " + training.best());
    double byHeldOut = wholeSetLogLikelihood(heldOut, heldOutFits);
    double byTraining = wholeSetLogLikelihood(training, trainingFits);
    assertTrue(
        byHeldOut > byTraining,
        "whole-set log-likelihood " + byHeldOut + " (held-out pick) against " + byTraining);
  }
}
