package org.largecat.train.sampled;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.kernel.Kernels;

/**
 * The NCE and IS baselines of unbiased-scalable-softmax §4.1: their slot derivatives, and IS's
 * limit.
 */
class SampledBaselineBoundsTest {
  private static final Kernels KERNELS = Kernels.of("scalar");
  private static final Dataset DATA = SyntheticData.linearSoftmax(30, 2, 8, 1.0, 4).data();

  private static double[] randomScores(SplittableRandom random, int slots) {
    double[] scores = new double[slots];
    for (int j = 0; j < slots; j++) {
      scores[j] = 3 * random.nextGaussian();
    }
    return scores;
  }

  /** ∂L̂/∂ψ per slot from the worker against central differences of its own estimate. */
  private static void checkSlopes(SampledBound bound, String name) {
    int s = 5;
    SampledBound.Worker worker = bound.worker(KERNELS, s + 1);
    SplittableRandom random = new SplittableRandom(8);
    for (int trial = 0; trial < 20; trial++) {
      double[] scores = randomScores(random, s + 1);
      double[] weight = new double[s];
      double[] logWeight = new double[s];
      for (int j = 0; j < s; j++) {
        weight[j] = 0.2 + 3 * random.nextDouble();
        logWeight[j] = Math.log(weight[j]);
      }
      float[] coef = new float[s + 1];
      int n = trial % DATA.rows();
      worker.step(n, scores, s, weight, logWeight, coef, null);
      for (int j = 0; j <= s; j++) {
        double[] plus = scores.clone();
        double[] minus = scores.clone();
        plus[j] += 1e-6;
        minus[j] -= 1e-6;
        float[] unused = new float[s + 1];
        double numeric =
            (worker.step(n, plus, s, weight, logWeight, unused, null)
                    - worker.step(n, minus, s, weight, logWeight, unused, null))
                / 2e-6;
        assertEquals(
            numeric,
            coef[j],
            1e-6 * Math.max(1, Math.abs(numeric)),
            name + " trial " + trial + ", slot " + j);
      }
    }
  }

  @Test
  void nceSlopesAreTheDerivativesOfItsObjective() {
    checkSlopes(new NoiseContrastiveEstimation(DATA, 0, 5), "nce");
    checkSlopes(new NoiseContrastiveEstimation(DATA, 0.75, 5), "nce, frequency noise");
  }

  @Test
  void importanceSamplingSlopesAreTheDerivativesOfItsEstimate() {
    checkSlopes(new ImportanceSampledSoftmax(), "is");
  }

  /**
   * With every other class in S at weight 1, the log-Q corrected estimate is the exact log-softmax.
   */
  @Test
  void importanceSamplingOverAllClassesIsTheExactSoftmax() {
    int s = 7;
    SplittableRandom random = new SplittableRandom(2);
    double[] scores = randomScores(random, s + 1);
    double[] ones = new double[s];
    java.util.Arrays.fill(ones, 1);
    float[] isCoef = new float[s + 1];
    float[] exactCoef = new float[s + 1];
    double is =
        new ImportanceSampledSoftmax()
            .worker(KERNELS, s + 1)
            .step(0, scores, s, ones, new double[s], isCoef, null);
    double exact =
        new ExactSoftmax()
            .worker(KERNELS, s + 1)
            .step(0, scores, s, ones, new double[s], exactCoef, null);
    assertEquals(exact, is, 1e-14 * Math.abs(exact));
    for (int j = 0; j <= s; j++) {
      assertEquals(exactCoef[j], isCoef[j], 1e-7, "slot " + j);
    }
  }
}
