package org.largecat.eval;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;

/**
 * The score bound against scores computed here by plain loops: no row passes it, and the row that
 * takes each column's largest magnitude with the sign of its weight reaches it.
 */
class ScoreRangeTest {
  private static final int ROWS = 50;
  private static final int COLUMNS = 7;
  private static final int CLASSES = 5;

  private static float[] randomFloats(Random random, int n, double scale) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (float) (random.nextGaussian() * scale);
    }
    return a;
  }

  private static double[] randomDoubles(Random random, int n) {
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = random.nextGaussian();
    }
    return a;
  }

  /** ψ_k(x) by plain loops: W x + b, or U (Vᵀ x) + b. */
  private static double score(ScoreModel model, float[] x, int k) {
    double sum = model.biases()[k];
    switch (model) {
      case LinearModel m -> {
        for (int j = 0; j < COLUMNS; j++) {
          sum += (double) m.weights()[k * COLUMNS + j] * x[j];
        }
      }
      case FactorizedModel f -> {
        for (int r = 0; r < f.rank(); r++) {
          double h = 0;
          for (int j = 0; j < COLUMNS; j++) {
            h += (double) f.inputs()[j * f.rank() + r] * x[j];
          }
          sum += f.outputs()[k * f.rank() + r] * h;
        }
      }
    }
    return sum;
  }

  private static float[] maxAbs(float[] x) {
    float[] max = new float[COLUMNS];
    for (int i = 0; i < x.length; i++) {
      max[i % COLUMNS] = Math.max(max[i % COLUMNS], Math.abs(x[i]));
    }
    return max;
  }

  @Test
  void noRowPassesALinearModelsBoundAndTheWorstRowReachesIt() {
    Random random = new Random(38);
    LinearModel model =
        new LinearModel(
            Link.SOFTMAX,
            CLASSES,
            COLUMNS,
            randomFloats(random, CLASSES * COLUMNS, 1),
            randomDoubles(random, CLASSES));
    float[] x = randomFloats(random, ROWS * COLUMNS, 3);
    float[] max = maxAbs(x);
    double[] bounds = ScoreRange.bounds(model, max);
    for (int k = 0; k < CLASSES; k++) {
      for (int i = 0; i < ROWS; i++) {
        float[] row = Arrays.copyOfRange(x, i * COLUMNS, (i + 1) * COLUMNS);
        assertTrue(Math.abs(score(model, row, k)) <= bounds[k], "class " + k + ", row " + i);
      }
      float[] worst = new float[COLUMNS];
      for (int j = 0; j < COLUMNS; j++) {
        worst[j] = Math.copySign(max[j], model.weights()[k * COLUMNS + j]);
      }
      double reached = score(model, worst, k) - model.biases()[k] + Math.abs(model.biases()[k]);
      assertEquals(reached, bounds[k], 1e-12 * bounds[k], "class " + k);
    }
  }

  @Test
  void noRowPassesAFactorizedModelsBound() {
    Random random = new Random(39);
    int rank = 3;
    FactorizedModel model =
        new FactorizedModel(
            Link.SOFTMAX,
            CLASSES,
            COLUMNS,
            rank,
            randomFloats(random, COLUMNS * rank, 1),
            randomFloats(random, CLASSES * rank, 1),
            randomDoubles(random, CLASSES));
    float[] x = randomFloats(random, ROWS * COLUMNS, 3);
    double[] bounds = ScoreRange.bounds(model, maxAbs(x));
    for (int k = 0; k < CLASSES; k++) {
      for (int i = 0; i < ROWS; i++) {
        float[] row = Arrays.copyOfRange(x, i * COLUMNS, (i + 1) * COLUMNS);
        assertTrue(Math.abs(score(model, row, k)) <= bounds[k], "class " + k + ", row " + i);
      }
    }
  }

  @Test
  void aBoundBeyondFloatRangeIsRefusedThoughEachRowScoresWithinIt() {
    // Each row's score is 2e38, within float range; the bound, 4e38, is not.
    LinearModel model =
        new LinearModel(Link.SOFTMAX, 2, 2, new float[] {2e18f, 2e18f, 0, 0}, new double[2]);
    Dataset data =
        new Dataset(new DenseFeatures(2, 2, new float[] {1e20f, 0, 0, 1e20f}), new int[2], 2);
    ArithmeticException e =
        assertThrows(ArithmeticException.class, () -> ScoreRange.check(model, data, Kernels.get()));
    assertTrue(
        e.getMessage().startsWith("the score of class 0 can reach 4.00e+38")
            && e.getMessage().contains("float range"),
        e.getMessage());
    LinearModel halved =
        new LinearModel(Link.SOFTMAX, 2, 2, new float[] {1e18f, 1e18f, 0, 0}, new double[2]);
    assertDoesNotThrow(() -> ScoreRange.check(halved, data, Kernels.get()));
  }
}
