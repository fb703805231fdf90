package org.largecat.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.largecat.data.FactorizedSet;
import org.largecat.data.SyntheticData;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;

class FactorizedEvaluationTest {
  /**
   * A factorized model scores as the linear model W = U Vᵀ (formed here in double precision) does,
   * on every backend, for any thread count and across the ends of the gemm blocks.
   */
  @Test
  void scoresAsTheLinearModelOfItsProduct() {
    int classes = 37;
    int columns = 23;
    int rank = 5;
    FactorizedSet set =
        SyntheticData.factorizedSoftmax(
            Kernels.of("scalar"), 301, columns, classes, rank, 0.4, 0.3, 8);
    FactorizedModel model =
        new FactorizedModel(
            Link.SOFTMAX, classes, columns, rank, set.inputs(), set.outputs(), set.biases());
    float[] w = new float[classes * columns];
    for (int k = 0; k < classes; k++) {
      for (int j = 0; j < columns; j++) {
        double sum = 0;
        for (int c = 0; c < rank; c++) {
          sum += (double) set.outputs()[k * rank + c] * set.inputs()[j * rank + c];
        }
        w[k * columns + j] = (float) sum;
      }
    }
    LinearModel product = new LinearModel(Link.SOFTMAX, classes, columns, w, set.biases());
    Evaluation.Result linear = Evaluation.evaluate(product, set.data(), Kernels.of("scalar"), 5, 1);
    for (String backend : new String[] {"scalar", "auto"}) {
      for (int threads : new int[] {1, 3}) {
        Evaluation.Result factorized =
            Evaluation.evaluate(model, set.data(), Kernels.of(backend), 5, threads);
        assertEquals(linear.meanLogLikelihood(), factorized.meanLogLikelihood(), 1e-5);
        assertEquals(linear.accuracy(), factorized.accuracy());
        assertEquals(linear.topKAccuracy(), factorized.topKAccuracy());
      }
    }
  }
}
