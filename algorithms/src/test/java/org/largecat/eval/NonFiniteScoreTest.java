package org.largecat.eval;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;

/**
 * A model with a NaN weight must not score: every comparison with NaN is false, so the label would
 * rank first and the accuracy read 1.0.
 */
class NonFiniteScoreTest {
  @Test
  void aNanWeightIsAnErrorNotAPerfectAccuracy() {
    for (Link link : Link.values()) {
      LinearModel model = LinearModel.zeros(link, 3, 2);
      model.weights()[3] = Float.NaN; // class 1, feature 1
      Dataset data =
          new Dataset(new DenseFeatures(2, 2, new float[] {1, 2, 3, 4}), new int[] {0, 2}, 3);
      NonFiniteScoreException e =
          assertThrows(
              NonFiniteScoreException.class,
              () -> Evaluation.evaluate(model, data, Kernels.get(), 2, 1),
              link.name());
      assertTrue(
          e.getMessage().startsWith("example 1: the score of class 1 is NaN"), e.getMessage());
    }
  }
}
