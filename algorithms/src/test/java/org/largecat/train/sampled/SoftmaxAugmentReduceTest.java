package org.largecat.train.sampled;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.Kernels;

/**
 * Softmax A&R's float step on a row of the shared gemm's output against its double step: the same
 * coefficients, label coefficient, estimate and local state, within the float rounding of the row.
 */
class SoftmaxAugmentReduceTest {
  private static final Kernels KERNELS = Kernels.of("scalar");
  private static final int EXAMPLES = 3;
  private static final int CLASSES = 50;
  private static final int S = 20;
  private static final double FLOAT_ULP = 0x1p-24;

  @Test
  void theRowStepIsTheDoubleStepInFloat() {
    SoftmaxAugmentReduce doubles = new SoftmaxAugmentReduce(EXAMPLES, CLASSES);
    SoftmaxAugmentReduce floats = new SoftmaxAugmentReduce(EXAMPLES, CLASSES);
    SampledBound.Worker worker = doubles.worker(KERNELS, S + 1);
    SampledBound.SharedRowWorker rowWorker = floats.sharedRowWorker(KERNELS);
    SplittableRandom random = new SplittableRandom(7);
    double logW = Math.log((CLASSES - 1) / (double) S);
    // Several visits of each example, so that the local step's state is compared too, with score
    // spreads from near-uniform to far tails.
    for (double spread : new double[] {0.1, 3, 30, 80}) {
      for (int n = 0; n < EXAMPLES; n++) {
        double[] scores = new double[S + 1];
        double[] weight = new double[S];
        double[] logWeight = new double[S];
        float[] row = new float[S + 2]; // at offset 2: the step must keep to its span
        float[] labelCoef = new float[2];
        scores[0] = spread * random.nextGaussian();
        double largest = Math.abs(scores[0]);
        for (int j = 0; j < S; j++) {
          float score = (float) (spread * random.nextGaussian());
          double bias = 0.5 * random.nextGaussian();
          boolean label = j == n || j == n + 5; // the label filling two slots
          weight[j] = label ? 0 : Math.exp(logW);
          logWeight[j] = label ? Double.NEGATIVE_INFINITY : logW;
          scores[j + 1] = score + bias;
          row[2 + j] = label ? Float.NEGATIVE_INFINITY : score + (float) (bias + logW);
          largest = Math.max(largest, Math.abs(score) + Math.abs(bias + logW));
        }
        float[] coef = new float[S + 1];
        double expected = worker.step(n, scores, S, weight, logWeight, coef, new CounterRandom());
        double actual = rowWorker.step(n, scores[0], row, 2, S, labelCoef, 1);
        double tolerance = (8 + 4 * largest) * FLOAT_ULP;
        assertEquals(expected, actual, tolerance * (1 + Math.abs(expected)), "estimate");
        assertEquals(coef[0], labelCoef[1], tolerance * coef[0], "label coefficient");
        // A subnormal p_k is rounded to a multiple of the smallest float before it is scaled by
        // the label's coefficient.
        double subnormal = 2 * Float.MIN_VALUE * Math.max(1, coef[0]);
        for (int j = 0; j < S; j++) {
          assertEquals(
              coef[j + 1], row[2 + j], -tolerance * coef[j + 1] + subnormal, "coefficient " + j);
        }
        assertEquals(0f, row[0] + row[1] + labelCoef[0], "outside the row");
      }
    }
  }

  @Test
  void aSetHoldingOnlyTheLabelGivesNoTerms() {
    SoftmaxAugmentReduce doubles = new SoftmaxAugmentReduce(1, CLASSES);
    SoftmaxAugmentReduce floats = new SoftmaxAugmentReduce(1, CLASSES);
    double[] scores = {1.5, 2.0, -3.0};
    double[] weight = {0, 0};
    double[] logWeight = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
    float[] coef = new float[3];
    double expected =
        doubles.worker(KERNELS, 3).step(0, scores, 2, weight, logWeight, coef, new CounterRandom());
    float[] row = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
    float[] labelCoef = new float[1];
    double actual = floats.sharedRowWorker(KERNELS).step(0, 1.5, row, 0, 2, labelCoef, 0);
    assertEquals(expected, actual, 1e-15);
    assertEquals(0f, coef[0]);
    assertEquals(coef[0], labelCoef[0]);
    assertEquals(coef[1], row[0]);
    assertEquals(coef[2], row[1]);
  }
}
