package org.largecat.train.doublesum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SyntheticData;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Method;

/**
 * The stochastic gradients the one-pair trainers step along: each against central finite
 * differences of the per-pair objective (Eq. 6 and Raman et al.'s Eq. 8, written out here
 * independently), and their mean against the full gradient of f(u, W) (Eq. 5).
 */
class DoubleSumGradientTest {
  private static final Kernels KERNELS = Kernels.of("scalar");
  private static final int K = 5;
  private static final int D = 3;
  private static final Dataset DATA = SyntheticData.linearSoftmax(12, D, K, 1.0, 3).data();
  private static final double RIDGE = 0.3;
  private static final double RATE = 1e-2;

  private static LinearModel startingModel() {
    SplittableRandom random = new SplittableRandom(5);
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, K, D);
    for (int p = 0; p < model.weights().length; p++) {
      model.weights()[p] = (float) (0.5 * random.nextGaussian());
    }
    for (int k = 0; k < K; k++) {
      model.biases()[k] = 0.5 * random.nextGaussian();
    }
    return model;
  }

  /** The extended parameters (u, then w̃_k = (w_k, b_k) row by row) of a trainer state. */
  private static double[] parameters(double[] u, LinearModel model) {
    double[] theta = new double[u.length + K * (D + 1)];
    System.arraycopy(u, 0, theta, 0, u.length);
    for (int k = 0; k < K; k++) {
      for (int j = 0; j < D; j++) {
        theta[u.length + k * (D + 1) + j] = model.weights()[k * D + j];
      }
      theta[u.length + k * (D + 1) + D] = model.biases()[k];
    }
    return theta;
  }

  private static double score(double[] theta, int i, int k) {
    float[] x = ((DenseFeatures) DATA.features()).values();
    int base = DATA.rows() + k * (D + 1);
    double s = theta[base + D];
    for (int j = 0; j < D; j++) {
      s += theta[base + j] * x[i * D + j];
    }
    return s;
  }

  private static double rowNorm2(double[] theta, int k) {
    double sum = 0;
    for (int j = 0; j <= D; j++) {
      double v = theta[DATA.rows() + k * (D + 1) + j];
      sum += v * v;
    }
    return sum;
  }

  /** β_j = N(K − 1)/(n_j(K − 2) + N), written out from its meaning: 1/P(j ∈ {y_i, k}). */
  private static double beta(int j) {
    double n = DATA.rows();
    double p = DATA.classCounts()[j] / n + (1 - DATA.classCounts()[j] / n) / (K - 1);
    return 1 / p;
  }

  /** Eq. 6 on the mean scale, or Raman et al.'s Eq. 8. */
  private static double pairObjective(double[] theta, int i, int k, boolean raman) {
    int y = DATA.labels()[i];
    double u = theta[i];
    double ridge = RIDGE / 2 * (beta(y) * rowNorm2(theta, y) + beta(k) * rowNorm2(theta, k));
    if (raman) {
      double psiY = score(theta, i, y);
      return u - psiY + Math.exp(psiY - u) + (K - 1) * Math.exp(score(theta, i, k) - u) + ridge;
    }
    return u
        + Math.exp(-u)
        + (K - 1) * Math.exp(score(theta, i, k) - score(theta, i, y) - u)
        + ridge;
  }

  /** f(u, W)/N of Eq. 5: (1/N) Σ_i (u_i + e^{−u_i} Σ_k ... ) + (μ/2)‖W̃‖². */
  private static double fullObjective(double[] theta) {
    double f = 0;
    for (int i = 0; i < DATA.rows(); i++) {
      int y = DATA.labels()[i];
      double u = theta[i];
      double d = 1;
      for (int k = 0; k < K; k++) {
        if (k != y) {
          d += Math.exp(score(theta, i, k) - score(theta, i, y));
        }
      }
      f += u + Math.exp(-u) * d;
    }
    double norm2 = 0;
    for (int k = 0; k < K; k++) {
      norm2 += rowNorm2(theta, k);
    }
    return f / DATA.rows() + RIDGE / 2 * norm2;
  }

  private interface Objective {
    double at(double[] theta);
  }

  private static double[] numericGradient(Objective f, double[] theta) {
    double[] g = new double[theta.length];
    for (int p = 0; p < theta.length; p++) {
      double h = 1e-6 * Math.max(1, Math.abs(theta[p]));
      double[] plus = theta.clone();
      double[] minus = theta.clone();
      plus[p] += h;
      minus[p] -= h;
      g[p] = (f.at(plus) - f.at(minus)) / (2 * h);
    }
    return g;
  }

  /**
   * One step of one pair: returns (θ_before − θ_after)/η, and the pair's i and k in {@code pair}.
   */
  private static double[] oneStep(Method method, long seed, double[] before, int[] pair) {
    LinearModel model = startingModel();
    // δ huge: no U-max reset, so the step is plain SGD on the formulation; μ > 0, so B_W is finite
    // but far.
    DoubleSumSpec options =
        new DoubleSumSpec(method, RATE, 0.9, 1, RIDGE, 1e9, 1, 1, 1, 1e-10, seed, 1);
    try (PairTrainer trainer = new PairTrainer(DATA, model, options, KERNELS)) {
      double[] start = parameters(trainer.u(), model);
      System.arraycopy(start, 0, before, 0, start.length);
      trainer.step();
      double[] after = parameters(trainer.u(), model);
      double[] descent = new double[after.length];
      for (int p = 0; p < after.length; p++) {
        descent[p] = (start[p] - after[p]) / RATE;
        if (p < DATA.rows() && start[p] != after[p]) {
          pair[0] = p;
        }
      }
      int y = DATA.labels()[pair[0]];
      for (int k = 0; k < K; k++) {
        if (k != y && model.biases()[k] != startingModel().biases()[k]) {
          pair[1] = k;
        }
      }
      return descent;
    }
  }

  private static void checkAgainstFiniteDifferences(Method method, boolean raman) {
    for (long seed = 1; seed <= 5; seed++) {
      double[] before = new double[DATA.rows() + K * (D + 1)];
      int[] pair = new int[2];
      double[] descent = oneStep(method, seed, before, pair);
      double[] numeric =
          numericGradient(theta -> pairObjective(theta, pair[0], pair[1], raman), before);
      for (int p = 0; p < numeric.length; p++) {
        // The step is exactly −η∇f_ik; what is left is float rounding of the weights (≈ 1e-7/η).
        assertEquals(
            numeric[p],
            descent[p],
            2e-4 * Math.max(1, Math.abs(numeric[p])),
            method.label()
                + " seed "
                + seed
                + " (i = "
                + pair[0]
                + ", k = "
                + pair[1]
                + "), parameter "
                + p);
      }
    }
  }

  @Test
  void vanillaSgdStepsAlongTheGradientOfEquation6() {
    checkAgainstFiniteDifferences(Method.DOUBLE_SUM_SGD, false);
  }

  @Test
  void ramanUmaxStepsAlongTheGradientOfEquation8() {
    checkAgainstFiniteDifferences(Method.UMAX_RAMAN, true);
  }

  @Test
  void meanStochasticGradientIsTheFullGradient() {
    int samples = 20_000;
    double[] before = new double[DATA.rows() + K * (D + 1)];
    double[] sum = new double[before.length];
    double[] sumSquares = new double[before.length];
    int[] pair = new int[2];
    for (int s = 0; s < samples; s++) {
      double[] descent = oneStep(Method.DOUBLE_SUM_SGD, 100 + s, before, pair);
      for (int p = 0; p < sum.length; p++) {
        sum[p] += descent[p];
        sumSquares[p] += descent[p] * descent[p];
      }
    }
    double[] full = numericGradient(DoubleSumGradientTest::fullObjective, before);
    for (int p = 0; p < full.length; p++) {
      double mean = sum[p] / samples;
      double standardError =
          Math.sqrt(Math.max(0, sumSquares[p] / samples - mean * mean) / samples);
      assertTrue(
          Math.abs(mean - full[p]) <= 4.5 * standardError + 1e-6,
          "parameter "
              + p
              + ": mean stochastic gradient "
              + mean
              + ", full gradient "
              + full[p]
              + ", MC error "
              + standardError);
    }
  }
}
