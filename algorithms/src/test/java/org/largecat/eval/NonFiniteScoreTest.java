package org.largecat.eval;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SparseFeatures;
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

  /**
   * A score that overflows float to -Inf leaves the row's largest and its exponentials' sum finite;
   * the check still finds it, and names its class, by blocks and by gather-dot rows alike.
   */
  @ParameterizedTest(name = "{0}, {1}")
  @CsvSource({"scalar, -Infinity", "auto, -Infinity", "scalar, Infinity", "auto, Infinity"})
  void anOverflowingScoreNamesItsClass(String backend, float sign) {
    int columns = 200; // sparse with 2 values in 2 rows: one gather-dot a row, not a gemm block
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, 3, columns);
    model.weights()[2 * columns] = Math.copySign(Float.MAX_VALUE, sign); // class 2, feature 0
    model.weights()[2 * columns + 1] = Math.copySign(Float.MAX_VALUE, sign);
    float[] dense = new float[2 * columns];
    dense[columns] = 3;
    dense[columns + 1] = 4;
    Dataset data = new Dataset(new DenseFeatures(2, columns, dense), new int[] {0, 2}, 3);
    String expected = "example 2: the score of class 2 is " + (double) sign + ";";
    Kernels kernels = Kernels.of(backend);
    NonFiniteScoreException e =
        assertThrows(
            NonFiniteScoreException.class, () -> Evaluation.evaluate(model, data, kernels, 2, 1));
    assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    Predictor predictor = new Predictor(model, kernels);
    e =
        assertThrows(
            NonFiniteScoreException.class,
            () -> predictor.forEachRow(data.features(), 0, 2, 1, (row, psi) -> {}));
    assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    // One row by gather-dot in double: 7 · MAX_VALUE is finite there, but beyond float range.
    e =
        assertThrows(
            NonFiniteScoreException.class,
            () ->
                predictor.forEachScoreRow(
                    new SparseFeatures(
                        2, columns, new int[] {0, 0, 2}, new int[] {0, 1}, new float[] {3, 4}),
                    0,
                    2,
                    1,
                    (row, scores) -> {}));
    assertTrue(
        e.getMessage()
                .startsWith(
                    "example 2: the score of class 2 is "
                        + Math.copySign(7.0 * Float.MAX_VALUE, sign))
            && e.getMessage().contains("float range"),
        e.getMessage());
  }
}
