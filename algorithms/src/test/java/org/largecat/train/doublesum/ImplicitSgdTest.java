package org.largecat.train.doublesum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Method;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingDivergedException;

/** Implicit SGD's stability and its mini-batch solver; vanilla SGD's overflow; reproducibility. */
class ImplicitSgdTest {
  private static final Kernels KERNELS = Kernels.of("scalar");

  private static LinearModel randomModel(int classes, int columns, double scale, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, classes, columns);
    for (int p = 0; p < model.weights().length; p++) {
      model.weights()[p] = (float) (scale * random.nextGaussian());
    }
    for (int k = 0; k < classes; k++) {
      model.biases()[k] = scale * random.nextGaussian();
    }
    return model;
  }

  private static DoubleSumSpec options(Method method, double rate, double ridge, int threads) {
    return new DoubleSumSpec(
        method, rate, 0.9, 1, ridge, 1, DoubleSumSpec.POINTS_PER_STEP, 5, 5, 1e-10, 1, threads);
  }

  /**
   * With n = m = 1 the mini-batch problem (Eq. 21) is the one-pair problem of App. F.1, so the
   * Newton solve in the basis of x̃ must land where the batched Lambert-W kernel does, for learning
   * rates from gentle to extreme (weights scaled up so that z − u reaches the hundreds).
   */
  @Test
  void miniBatchSolverWithOnePointAndOneClassMatchesTheSingleClassKernel() {
    Dataset data = SyntheticData.linearSoftmax(40, 4, 6, 1.0, 9).data();
    for (double rate : new double[] {1e-3, 0.1, 10, 1e4}) {
      for (double scale : new double[] {0.3, 30}) {
        LinearModel model = randomModel(6, 4, scale, 2);
        LinearModel before = randomModel(6, 4, scale, 2);
        DoubleSumSpec o =
            new DoubleSumSpec(Method.IMPLICIT_SGD_BATCH, rate, 0.9, 1, 0, 1, 1, 1, 1, 1e-14, 4, 1);
        try (MiniBatchImplicitTrainer trainer =
            new MiniBatchImplicitTrainer(data, model, o, KERNELS)) {
          trainer.step();
          int i = -1;
          for (int n = 0; n < data.rows(); n++) {
            if (trainer.u()[n] != Math.log(6)) {
              i = n;
            }
          }
          int y = data.labels()[i];
          int k = -1;
          for (int c = 0; c < 6; c++) {
            if (c != y && model.biases()[c] != before.biases()[c]) {
              k = c;
            }
          }
          double[] x = new double[5];
          for (int j = 0; j < 4; j++) {
            x[j] = data.features().get(i, j);
          }
          x[4] = 1;
          double z = before.biases()[k] - before.biases()[y];
          double norm2 = 1;
          for (int j = 0; j < 4; j++) {
            z += (before.weights()[k * 4 + j] - before.weights()[y * 4 + j]) * x[j];
            norm2 += x[j] * x[j];
          }
          double[] uNew = new double[1];
          double[] a = new double[1];
          KERNELS
              .implicitUpdates()
              .softmaxSingleClass(
                  1,
                  new double[] {z},
                  0,
                  new double[] {Math.log(6)},
                  0,
                  new double[] {norm2},
                  0,
                  rate,
                  1,
                  6,
                  uNew,
                  0,
                  a,
                  0);
          String where = "rate " + rate + ", scale " + scale + ", z − u = " + (z - Math.log(6));
          assertEquals(
              uNew[0], trainer.u()[i], 1e-7 * Math.max(1, Math.abs(uNew[0])), "u, " + where);
          double move = a[0] / (2 * norm2);
          for (int j = 0; j < 5; j++) {
            double yNow = j < 4 ? model.weights()[y * 4 + j] : model.biases()[y];
            double yThen = j < 4 ? before.weights()[y * 4 + j] : before.biases()[y];
            double kNow = j < 4 ? model.weights()[k * 4 + j] : model.biases()[k];
            double kThen = j < 4 ? before.weights()[k * 4 + j] : before.biases()[k];
            double tolerance = 1e-5 * Math.max(1, Math.abs(yThen) + Math.abs(move * x[j]));
            assertEquals(yThen + move * x[j], yNow, tolerance, "w_y[" + j + "], " + where);
            assertEquals(kThen - move * x[j], kNow, tolerance, "w_k[" + j + "], " + where);
          }
        }
      }
    }
  }

  /**
   * The mini-batch step (App. F.3) against its definition, in the original variables rather than
   * the solver's basis: the new u_i and w̃_k must zero the gradient of 2η f_{j,C}(u, W) + ‖u − ũ‖²
   * + ‖W − W̃‖², f_{j,C} = s Σ_i (u_i + e^{−u_i} d_i) + (μ/2) Σ_k β_k ‖w̃_k‖² with s = J/N, to
   * 1e-10 relative to the gradient's terms; with full rank (D + 1 ≥ n) and without (D + 1 < n), at
   * learning rates from gentle to large and weights from small to large.
   */
  @Test
  void miniBatchStepZeroesTheGradientOfItsImplicitProblem() {
    int rows = 30;
    int classes = 12;
    int points = 5;
    int sampled = 4;
    int batches = (rows + points - 1) / points;
    double ridge = 0.05;
    for (int columns : new int[] {6, 2}) {
      Dataset data = SyntheticData.linearSoftmax(rows, columns, classes, 1.0, 3).data();
      for (double rate : new double[] {0.1, 3, 100}) {
        for (double scale : new double[] {0.5, 3}) {
          LinearModel model = randomModel(classes, columns, scale, 8);
          LinearModel before = randomModel(classes, columns, scale, 8);
          DoubleSumSpec o =
              new DoubleSumSpec(
                  Method.IMPLICIT_SGD_BATCH,
                  rate,
                  0.9,
                  1,
                  ridge,
                  1,
                  1,
                  points,
                  sampled,
                  1e-14,
                  5,
                  1);
          MiniBatchImplicitTrainer.Solution solution;
          double[] u;
          try (MiniBatchImplicitTrainer trainer =
              new MiniBatchImplicitTrainer(data, model, o, KERNELS)) {
            trainer.step();
            solution = trainer.lastSolution();
            u = trainer.u();
          }
          String where = "D = " + columns + ", rate " + rate + ", scale " + scale;
          // The paper's spec gives u_i no rate beyond the joint step's: no u-alone step follows.
          for (int p = 0; p < solution.points().length; p++) {
            double joint = Math.log(classes) - rate * batches / rows + solution.omega()[p];
            assertEquals(joint, u[solution.points()[p]], 1e-15 * Math.abs(joint), "u, " + where);
          }
          assertOptimal(data, before, solution, rate, rate * batches / rows, ridge, where);
        }
      }
    }
  }

  /**
   * With u_i's own rate η_u above the joint step's c = ηJ/N, each u_i of the batch must then
   * minimise 2c'(u + e^{−u} d_i) + (u − u_joint)², c' = η_u − c, with d_i = 1 + Σ_k ρ_k e^{z_ik}
   * computed here from the new rows in the original variables and u_joint = ũ_i − c + ω_i the joint
   * step's value: the derivative must vanish to 1e-9 relative to its terms.
   */
  @Test
  void miniBatchStepThenStepsUAloneAtTheRateLeft() {
    int rows = 30;
    int classes = 12;
    int points = 5;
    int sampled = 4;
    int columns = 6;
    int batches = (rows + points - 1) / points;
    Dataset data = SyntheticData.linearSoftmax(rows, columns, classes, 1.0, 3).data();
    for (double rate : new double[] {0.1, 3}) {
      for (double uRate : new double[] {1, 50}) {
        LinearModel model = randomModel(classes, columns, 1, 8);
        LinearModel before = randomModel(classes, columns, 1, 8);
        DoubleSumSpec o =
            DoubleSumSpec.builder(Method.IMPLICIT_SGD_BATCH)
                .learningRate(rate)
                .uLearningRate(uRate)
                .miniBatch(points, sampled)
                .blockSize(1)
                .innerTolerance(1e-14)
                .seed(5)
                .threads(1)
                .averaged(false)
                .build();
        MiniBatchImplicitTrainer.Solution solution;
        double[] u;
        try (MiniBatchImplicitTrainer trainer =
            new MiniBatchImplicitTrainer(data, model, o, KERNELS)) {
          trainer.step();
          solution = trainer.lastSolution();
          u = trainer.u().clone();
        }
        double c = rate * batches / rows;
        double rest = uRate - c;
        int q = solution.rows().length;
        int size = solution.points().length;
        int labelled = q - solution.sampled();
        double rho = (classes - labelled) / (double) solution.sampled();
        for (int p = 0; p < size; p++) {
          int i = solution.points()[p];
          double[] x = extended(data, i);
          double[] score = new double[q];
          int y = -1;
          for (int t = 0; t < q; t++) {
            int k = solution.rows()[t];
            y = k == data.labels()[i] ? t : y;
            for (int d = 0; d <= columns; d++) {
              double w = d < columns ? before.weights()[k * columns + d] : before.biases()[k];
              for (int r = 0; r < size; r++) {
                w += solution.moves()[t * size + r] * extended(data, solution.points()[r])[d];
              }
              score[t] += w * x[d];
            }
          }
          double d = 1;
          for (int t = 0; t < q; t++) {
            if (t != y) {
              d += (t < labelled ? 1 : rho) * Math.exp(score[t] - score[y]);
            }
          }
          double joint = Math.log(classes) - c + solution.omega()[p];
          double scaledD = d * Math.exp(-u[i]);
          double derivative = 2 * rest * (1 - scaledD) + 2 * (u[i] - joint);
          double magnitude = 2 * rest * (1 + scaledD) + 2 * Math.abs(u[i] - joint);
          assertEquals(
              0,
              derivative,
              1e-9 * magnitude,
              "point " + p + ", rate " + rate + ", u's rate " + uRate + ", u = " + u[i]);
        }
      }
    }
  }

  /** x̃_i = (x_i, 1) in double. */
  private static double[] extended(Dataset data, int i) {
    double[] x = new double[data.columns() + 1];
    for (int d = 0; d < data.columns(); d++) {
      x[d] = data.features().get(i, d);
    }
    x[data.columns()] = 1;
    return x;
  }

  private static void assertOptimal(
      Dataset data,
      LinearModel before,
      MiniBatchImplicitTrainer.Solution solution,
      double rate,
      double c,
      double ridge,
      String where) {
    int width = data.columns() + 1;
    int q = solution.rows().length;
    int size = solution.points().length;
    int labelled = q - solution.sampled();
    double rho = (data.classes() - labelled) / (double) solution.sampled();
    double[][] x = new double[size][];
    double[] uOld = new double[size];
    double[] uNew = new double[size];
    for (int p = 0; p < size; p++) {
      x[p] = extended(data, solution.points()[p]);
      uOld[p] = Math.log(data.classes());
      uNew[p] = uOld[p] - c + solution.omega()[p];
    }
    double[][] wOld = new double[q][width];
    double[][] wNew = new double[q][width];
    for (int t = 0; t < q; t++) {
      int k = solution.rows()[t];
      double shrink = 1 / (1 + rate * ridge * solution.beta()[t]);
      for (int d = 0; d < width; d++) {
        wOld[t][d] =
            d < data.columns() ? before.weights()[k * data.columns() + d] : before.biases()[k];
        wNew[t][d] = shrink * wOld[t][d];
        for (int p = 0; p < size; p++) {
          wNew[t][d] += solution.moves()[t * size + p] * x[p][d];
        }
      }
    }
    double[][] gradientW = new double[q][width];
    double[][] magnitudeW = new double[q][width];
    for (int p = 0; p < size; p++) {
      int y = -1;
      for (int t = 0; t < q; t++) {
        if (solution.rows()[t] == data.labels()[solution.points()[p]]) {
          y = t;
        }
      }
      // e^{−u} d_i = e^{−u} + Σ_k ρ_k e^{z_ik − u}; each term's weight on the gradient of w̃_k.
      double scaledD = Math.exp(-uNew[p]);
      double[] term = new double[q];
      for (int t = 0; t < q; t++) {
        if (t != y) {
          double z = 0;
          for (int d = 0; d < width; d++) {
            z += x[p][d] * (wNew[t][d] - wNew[y][d]);
          }
          term[t] = (t < labelled ? 1 : rho) * Math.exp(z - uNew[p]);
          scaledD += term[t];
          term[y] -= term[t];
        }
      }
      double gradientU = 2 * c * (1 - scaledD) + 2 * (uNew[p] - uOld[p]);
      double magnitudeU = 2 * c * (1 + scaledD) + 2 * Math.abs(uNew[p] - uOld[p]);
      assertEquals(0, gradientU, 1e-10 * magnitudeU, "∂/∂u of point " + p + ", " + where);
      for (int t = 0; t < q; t++) {
        for (int d = 0; d < width; d++) {
          gradientW[t][d] += 2 * c * term[t] * x[p][d];
          magnitudeW[t][d] += 2 * c * Math.abs(term[t] * x[p][d]);
        }
      }
    }
    for (int t = 0; t < q; t++) {
      double lambda = rate * ridge * solution.beta()[t];
      for (int d = 0; d < width; d++) {
        double g = gradientW[t][d] + 2 * lambda * wNew[t][d] + 2 * (wNew[t][d] - wOld[t][d]);
        double magnitude =
            magnitudeW[t][d]
                + 2 * lambda * Math.abs(wNew[t][d])
                + 2 * Math.abs(wNew[t][d] - wOld[t][d]);
        assertEquals(
            0,
            g,
            1e-10 * Math.max(magnitude, 1e-300),
            "∂/∂w̃ of row " + solution.rows()[t] + ", weight " + d + ", " + where);
      }
    }
  }

  /**
   * Proposition 2: Implicit SGD's step grows only linearly in z − u, so its log-loss stays finite
   * at every learning rate of the grid and beyond. On the unit-norm problem |z − u| stays below
   * 100; on the same data with row norms spread over two decades, as raw count features are, it
   * passes ±700, where e^{z − u} overflows a double (and with it the public Python code's root
   * bracket).
   */
  @Test
  void implicitSgdStaysFiniteAtEveryLearningRateAndMeetsExtremeExponents() {
    long extreme = 0;
    for (Dataset data :
        new Dataset[] {KnownOptimumProblem.DATA, KnownOptimumProblem.SPREAD_NORMS}) {
      for (double rate : new double[] {1e-3, 1e-2, 1e-1, 1, 10, 100, 1e3, 1e4}) {
        LinearModel model = LinearModel.zeros(Link.SOFTMAX, data.classes(), data.columns());
        try (PairTrainer trainer =
            new PairTrainer(data, model, options(Method.IMPLICIT_SGD, rate, 0, 2), KERNELS)) {
          for (int t = 0; t < 5 * trainer.iterationsPerEpoch(); t++) {
            trainer.step();
          }
          double[] logLoss = new double[1];
          new RidgeSoftmaxObjective(data, 0).value(model, logLoss);
          System.out.printf(
              "isgd, %s rows, learning rate %g: log-loss after 5 epochs %.4f, steps with |z − u| > 700: %d,"
                  + " largest |z − u| %.1f%n",
              data == KnownOptimumProblem.DATA ? "unit-norm" : "spread-norm",
              rate,
              logLoss[0],
              trainer.extremeSteps(),
              trainer.largestExponent());
          assertTrue(
              Double.isFinite(logLoss[0]), "log-loss at learning rate " + rate + ": " + logLoss[0]);
          for (double u : trainer.u()) {
            assertTrue(Double.isFinite(u), "u at learning rate " + rate);
          }
          extreme += trainer.extremeSteps();
        }
      }
    }
    assertTrue(extreme > 0, "no step had |z − u| > 700");
  }

  @Test
  void vanillaSgdStopsWithTheIterationAndLearningRateWhenItOverflows() {
    Dataset data = KnownOptimumProblem.DATA;
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, data.classes(), data.columns());
    TrainingDivergedException e =
        assertThrows(
            TrainingDivergedException.class,
            () -> {
              try (Trainer trainer =
                  DoubleSumTrainers.create(
                      data, model, options(Method.DOUBLE_SUM_SGD, 100, 0, 2), KERNELS)) {
                for (int t = 0; t < 50 * trainer.iterationsPerEpoch(); t++) {
                  trainer.step();
                }
              }
            });
    assertTrue(
        e.getMessage()
            .matches("sgd overflowed at iteration \\d+ \\(epoch 1, .*learning rate 100\\.000.*"),
        e.getMessage());
    for (float w : model.weights()) {
      assertTrue(Float.isFinite(w), "a weight is " + w + " after: " + e.getMessage());
    }
    for (double b : model.biases()) {
      assertTrue(Double.isFinite(b), "a bias is " + b + " after: " + e.getMessage());
    }
  }

  @Test
  void runsAreReproducibleForASeedAndThreadCount() {
    Dataset data = SyntheticData.linearSoftmax(3_000, 30, 400, 1.0, 5).data();
    for (Method method :
        new Method[] {Method.UMAX, Method.IMPLICIT_SGD, Method.IMPLICIT_SGD_BATCH}) {
      float[][] weights = new float[2][];
      for (int run = 0; run < 2; run++) {
        LinearModel model = LinearModel.zeros(Link.SOFTMAX, data.classes(), data.columns());
        try (Trainer trainer =
            DoubleSumTrainers.create(data, model, options(method, 0.1, 1e-3, 2), KERNELS)) {
          for (int t = 0; t < 2 * trainer.iterationsPerEpoch(); t++) {
            trainer.step();
          }
        }
        weights[run] = model.weights();
      }
      assertArrayEquals(
          weights[0], weights[1], method.label() + ": two runs with seed 1 and 2 threads");
    }
  }
}
