package org.largecat.train.doublesum;

import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.model.LinearModel;

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
   * The minimiser by L-BFGS (memory 20, Armijo backtracking) from 0, run until ‖∇F‖∞ ≤ {@code
   * tolerance}.
   */
  double[] minimise(double tolerance) {
    return minimise(tolerance, new double[classes * width]);
  }

  /**
   * The same from {@code start} (e.g. the minimiser of a larger ridge, for continuation towards μ =
   * 0).
   */
  double[] minimise(double tolerance, double[] start) {
    int size = classes * width;
    int memory = 20;
    double[][] s = new double[memory][size];
    double[][] yv = new double[memory][size];
    double[] rho = new double[memory];
    double[] alpha = new double[memory];
    double[] theta = start.clone();
    double[] g = new double[size];
    double[] next = new double[size];
    double[] gNext = new double[size];
    double[] dir = new double[size];
    double f = valueAndGradient(theta, g, null);
    int stored = 0;
    for (int iteration = 0; iteration < 100_000; iteration++) {
      double gmax = 0;
      for (double v : g) {
        gmax = Math.max(gmax, Math.abs(v));
      }
      if (gmax <= tolerance) {
        return theta;
      }
      for (int p = 0; p < size; p++) {
        dir[p] = -g[p];
      }
      for (int h = stored - 1; h >= Math.max(0, stored - memory); h--) {
        int slot = h % memory;
        alpha[slot] = rho[slot] * dot(s[slot], dir);
        axpy(-alpha[slot], yv[slot], dir);
      }
      if (stored > 0) {
        int last = (stored - 1) % memory;
        double scale = dot(s[last], yv[last]) / dot(yv[last], yv[last]);
        for (int p = 0; p < size; p++) {
          dir[p] *= scale;
        }
      }
      for (int h = Math.max(0, stored - memory); h < stored; h++) {
        int slot = h % memory;
        double beta = rho[slot] * dot(yv[slot], dir);
        axpy(alpha[slot] - beta, s[slot], dir);
      }
      double slope = dot(g, dir);
      double step = stored == 0 ? 1 / Math.max(1, Math.sqrt(dot(g, g))) : 1;
      double fNext;
      while (true) {
        for (int p = 0; p < size; p++) {
          next[p] = theta[p] + step * dir[p];
        }
        fNext = valueAndGradient(next, gNext, null);
        if (fNext <= f + 1e-4 * step * slope) {
          break;
        }
        step /= 2;
        if (step < 1e-12) {
          // No decrease left to find in double: converged as far as rounding allows.
          if (gmax <= 1e3 * tolerance) {
            return theta;
          }
          throw new AssertionError("L-BFGS line search failed at |grad| = " + gmax);
        }
      }
      int slot = stored % memory;
      for (int p = 0; p < size; p++) {
        s[slot][p] = next[p] - theta[p];
        yv[slot][p] = gNext[p] - g[p];
      }
      double sy = dot(s[slot], yv[slot]);
      if (sy > 0) {
        rho[slot] = 1 / sy;
        stored++;
      }
      System.arraycopy(next, 0, theta, 0, size);
      System.arraycopy(gNext, 0, g, 0, size);
      f = fNext;
    }
    throw new AssertionError("L-BFGS did not reach |grad| <= " + tolerance);
  }

  private static double dot(double[] a, double[] b) {
    double sum = 0;
    for (int p = 0; p < a.length; p++) {
      sum += a[p] * b[p];
    }
    return sum;
  }

  private static void axpy(double a, double[] x, double[] y) {
    for (int p = 0; p < y.length; p++) {
      y[p] += a * x[p];
    }
  }
}
