package org.largecat.train.sampled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.Kernels;

/**
 * The sampled sums are unbiased: their mean over many draws equals the full sum within Monte-Carlo
 * error.
 */
class ClassSamplerTest {
  private static final int K = 9;
  private static final int S = 3;
  private static final int LABEL = 4;
  private static final int DRAWS = 400_000;
  private static final int[] COUNTS = {50, 1, 0, 7, 30, 200, 3, 0, 12};

  private static double f(int k) {
    return 1 + k * k;
  }

  private static void assertUnbiased(ClassSampler sampler, boolean shared) {
    int[] rows = new int[S];
    double[] w = new double[S];
    double[] logW = new double[S];
    double[] sharedW = new double[S];
    sampler.uniformWeights(w, logW);
    CounterRandom random = new CounterRandom();
    double sum = 0;
    double sumSquares = 0;
    for (int i = 0; i < DRAWS; i++) {
      random.reseed(3, 0, i);
      if (shared) {
        sampler.sampleShared(rows, 0, sharedW, random);
        double[] sharedLog = java.util.Arrays.stream(sharedW).map(Math::log).toArray();
        ClassSampler.excludeLabel(LABEL, rows, 0, sharedW, sharedLog, S, w, logW);
      } else {
        sampler.sample(LABEL, rows, 0, w, logW, random);
      }
      double estimate = 0;
      for (int j = 0; j < S; j++) {
        assertTrue(shared || rows[j] != LABEL);
        assertEquals(Math.log(w[j]), logW[j], 1e-15);
        estimate += w[j] == 0 ? 0 : w[j] * f(rows[j]);
      }
      sum += estimate;
      sumSquares += estimate * estimate;
    }
    double exact = 0;
    for (int k = 0; k < K; k++) {
      exact += k == LABEL ? 0 : f(k);
    }
    double mean = sum / DRAWS;
    double standardError = Math.sqrt((sumSquares / DRAWS - mean * mean) / DRAWS);
    assertEquals(
        exact,
        mean,
        5 * standardError,
        "mean of the sampled sums vs the full sum (5 standard errors)");
  }

  @Test
  void uniformWithoutReplacementIsUnbiased() {
    assertUnbiased(ClassSampler.uniform(K, S), false);
  }

  @Test
  void frequencyProportionalWithImportanceWeightsIsUnbiased() {
    assertUnbiased(ClassSampler.frequency(COUNTS, 0.75, S), false);
  }

  @Test
  void sharedSetsWithTheLabelExcludedAreUnbiased() {
    assertUnbiased(ClassSampler.uniform(K, S), true);
    assertUnbiased(ClassSampler.frequency(COUNTS, 0.75, S), true);
  }

  @Test
  void uniformDrawsAreDistinct() {
    ClassSampler sampler = ClassSampler.uniform(K, K - 2);
    int[] rows = new int[K - 2];
    CounterRandom random = new CounterRandom();
    for (int i = 0; i < 1000; i++) {
      random.reseed(1, 2, i);
      sampler.sample(LABEL, rows, 0, new double[K - 2], new double[K - 2], random);
      Set<Integer> distinct = new HashSet<>();
      for (int k : rows) {
        assertNotEquals(LABEL, k);
        assertTrue(distinct.add(k), "class " + k + " drawn twice");
      }
    }
  }

  @Test
  void oneVsEachGradientEstimatesAverageToTheExactGradient() {
    double[] psi = {0.3, -1.2, 2.5, 0.0, 1.1, -0.4, 3.0, -2.2, 0.7};
    double[] exact = new double[K];
    for (int k = 0; k < K; k++) {
      if (k != LABEL) {
        double sigma = 1 / (1 + Math.exp(-(psi[k] - psi[LABEL])));
        exact[k] = -sigma;
        exact[LABEL] += sigma;
      }
    }
    for (ClassSampler sampler :
        new ClassSampler[] {ClassSampler.uniform(K, S), ClassSampler.frequency(COUNTS, 0.75, S)}) {
      SampledBound.Worker worker = new OneVsEach().worker(Kernels.of("scalar"), S + 1);
      int[] rows = new int[S + 1];
      double[] w = new double[S];
      double[] logW = new double[S];
      sampler.uniformWeights(w, logW);
      double[] scores = new double[S + 1];
      float[] coef = new float[S + 1];
      double[] mean = new double[K];
      CounterRandom random = new CounterRandom();
      int draws = 200_000;
      for (int i = 0; i < draws; i++) {
        random.reseed(5, 1, i);
        rows[0] = LABEL;
        sampler.sample(LABEL, rows, 1, w, logW, random);
        for (int j = 0; j <= S; j++) {
          scores[j] = psi[rows[j]];
        }
        worker.step(0, scores, S, w, logW, coef, random);
        for (int j = 0; j <= S; j++) {
          mean[rows[j]] += coef[j] / (double) draws;
        }
      }
      for (int k = 0; k < K; k++) {
        assertEquals(
            exact[k], mean[k], 0.02 * Math.max(1, Math.abs(exact[k])), "d bound / d psi_" + k);
      }
    }
  }
}
