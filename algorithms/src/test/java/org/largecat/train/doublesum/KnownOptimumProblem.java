package org.largecat.train.doublesum;

import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Preprocessing;
import org.largecat.data.SyntheticData;

/**
 * The test problem with a known optimum: K = 50, D = 20, N = 5,000 linear-softmax data (generating
 * weights and biases N(0, 0.3²), x ~ N(0, I)) with rows then scaled to unit norm (as §4.1 does to
 * every dataset), small ridge μ = 1e-3 on the mean scale, and the exact minimiser of the
 * ridge-regularised softmax log-loss by full-batch L-BFGS.
 */
final class KnownOptimumProblem {
  static final double RIDGE = 1e-3;
  private static final Dataset GENERATED =
      SyntheticData.linearSoftmax(5_000, 20, 50, 0.3, 7).data();
  static final Dataset DATA = Preprocessing.unitRows(GENERATED);

  /**
   * The same data before the unit-norm scaling (x ~ N(0, I)), each row then scaled by 10^U, U
   * uniform on (−1, 1): norms from 0.4 to 60, as raw count features have.
   */
  static final Dataset SPREAD_NORMS = spreadNorms(GENERATED, 3);

  static final RidgeSoftmaxObjective OBJECTIVE = new RidgeSoftmaxObjective(DATA, RIDGE);
  private static double[] optimum;

  private KnownOptimumProblem() {}

  /** F at the exact minimiser. */
  static synchronized double optimalObjective() {
    if (optimum == null) {
      optimum = OBJECTIVE.minimise(1e-9);
    }
    return OBJECTIVE.valueAndGradient(optimum, null, null);
  }

  /** The log-loss at the exact minimiser. */
  static double optimalLogLoss() {
    optimalObjective();
    double[] logLoss = new double[1];
    OBJECTIVE.valueAndGradient(optimum, null, logLoss);
    return logLoss[0];
  }

  /**
   * The log-loss of the unregularised MLE, min_W −(1/N) Σ log p: the least log-loss any model has
   * on these data, by continuation from the μ = 1e-3 optimum through μ = 1e-4 and 1e-5 to 0.
   */
  static synchronized double unregularisedLogLoss() {
    optimalObjective();
    double[] theta = optimum;
    for (double ridge : new double[] {1e-4, 1e-5, 0}) {
      theta = new RidgeSoftmaxObjective(DATA, ridge).minimise(ridge == 0 ? 1e-7 : 1e-8, theta);
    }
    double[] logLoss = new double[1];
    new RidgeSoftmaxObjective(DATA, 0).valueAndGradient(theta, null, logLoss);
    return logLoss[0];
  }

  static Dataset spreadNorms(Dataset data, long seed) {
    DenseFeatures x = (DenseFeatures) data.features();
    float[] values = x.values().clone();
    int d = x.columns();
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    for (int i = 0; i < x.rows(); i++) {
      double scale = Math.pow(10, 2 * random.nextDouble() - 1);
      for (int j = 0; j < d; j++) {
        values[i * d + j] = (float) (values[i * d + j] * scale);
      }
    }
    return new Dataset(new DenseFeatures(x.rows(), d, values), data.labels(), data.classes());
  }
}
