package org.largecat.train.doublesum;

import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.model.LinearModel;
import org.largecat.train.LbfgsSettings;
import org.largecat.train.fullbatch.Lbfgs;
import org.largecat.train.fullbatch.LbfgsResult;

/**
 * The exact objective the double-sum trainers minimise, F(W̃) = −(1/N) Σ_n log p(y_n | x_n) +
 * (μ/2)‖W̃‖² over the extended rows w̃_k = (w_k, b_k), in double, with its gradient; and its
 * minimiser by full-batch L-BFGS, the truth the stochastic trainers are measured against. Dense
 * data only.
 */
final class RidgeSoftmaxObjective {
  private final Dataset data;
  private final double ridge;
  private final int classes;
  private final int width;

  RidgeSoftmaxObjective(Dataset data, double ridge) {
    this.data = data;
    this.ridge = ridge;
    this.classes = data.classes();
    this.width = data.columns() + 1;
  }

  /**
   * F at the model's weights and biases, and −(1/N) Σ log p alone in {@code logLoss[0]} if given.
   */
  double value(LinearModel model, double[] logLoss) {
    return valueAndGradient(extended(model), null, logLoss);
  }

  /** The extended K × (D + 1) matrix of a model. */
  double[] extended(LinearModel model) {
    int d = data.columns();
    double[] theta = new double[classes * width];
    for (int k = 0; k < classes; k++) {
      for (int j = 0; j < d; j++) {
        theta[k * width + j] = model.weights()[k * d + j];
      }
      theta[k * width + d] = model.biases()[k];
    }
    return theta;
  }

  /**
   * F(θ), its gradient into {@code gradient} when not null, the log-loss alone into {@code
   * logLoss[0]}.
   */
  double valueAndGradient(double[] theta, double[] gradient, double[] logLoss) {
    float[] x = ((DenseFeatures) data.features()).values();
    int d = data.columns();
    int n = data.rows();
    double[] psi = new double[classes];
    double loss = 0;
    if (gradient != null) {
      java.util.Arrays.fill(gradient, 0);
    }
    for (int i = 0; i < n; i++) {
      double max = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < classes; k++) {
        double s = theta[k * width + d];
        for (int j = 0; j < d; j++) {
          s += theta[k * width + j] * x[i * d + j];
        }
        psi[k] = s;
        max = Math.max(max, s);
      }
      double sum = 0;
      for (int k = 0; k < classes; k++) {
        sum += Math.exp(psi[k] - max);
      }
      double logZ = max + Math.log(sum);
      int y = data.labels()[i];
      loss += logZ - psi[y];
      if (gradient != null) {
        for (int k = 0; k < classes; k++) {
          double g = (Math.exp(psi[k] - logZ) - (k == y ? 1 : 0)) / n;
          for (int j = 0; j < d; j++) {
            gradient[k * width + j] += g * x[i * d + j];
          }
          gradient[k * width + d] += g;
        }
      }
    }
    loss /= n;
    if (logLoss != null) {
      logLoss[0] = loss;
    }
    double norm2 = 0;
    for (int p = 0; p < theta.length; p++) {
      norm2 += theta[p] * theta[p];
      if (gradient != null) {
        gradient[p] += ridge * theta[p];
      }
    }
    return loss + ridge / 2 * norm2;
  }

  /**
   * The minimiser by {@link Lbfgs} (memory 20) from 0, run until ‖∇F‖∞ ≤ {@code tolerance} or to
   * the noise floor of F.
   */
  double[] minimise(double tolerance) {
    return minimise(tolerance, new double[classes * width]);
  }

  /**
   * The same from {@code start} (e.g. the minimiser of a larger ridge, for continuation towards μ =
   * 0).
   */
  double[] minimise(double tolerance, double[] start) {
    double[] theta = start.clone();
    LbfgsResult result =
        Lbfgs.minimise(
            (x, gradient) -> valueAndGradient(x, gradient, null),
            theta,
            new LbfgsSettings(20, tolerance, 1e-15, 100_000, 200_000, Double.POSITIVE_INFINITY),
            (iteration, evaluations, value, gradientNorm, relativeChange, seconds) -> {});
    if (!result.outcome().converged()) {
      throw new AssertionError("L-BFGS ended " + result.outcome() + " at " + result);
    }
    return theta;
  }
}
