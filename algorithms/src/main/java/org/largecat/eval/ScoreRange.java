package org.largecat.eval;

import java.util.Locale;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;

/**
 * Whether a model's scores stay within float range on a data set, checked before the model is
 * saved: scores are computed and kept in float, so a model whose scores overflow on its own
 * training rows would be saved only to be refused when scored. Two checks: for every class the
 * bound |b_k| + Σ_j |w_kj| max_i |x_ij| (factorized: |b_k| + Σ_r |u_kr| Σ_j |v_jr| max_i |x_ij|),
 * which no row of the set can pass, and the scores themselves on an evenly spread sample of the
 * rows.
 */
public final class ScoreRange {
  /** Rows of the sample whose scores are computed. */
  static final int SAMPLE_ROWS = 1024;

  private ScoreRange() {}

  /**
   * Refuses {@code model} when a score on {@code data}'s rows could pass float range.
   *
   * @throws ArithmeticException naming the class whose bound passes it, or the sampled example
   *     whose score does
   */
  public static void check(ScoreModel model, Dataset data, Kernels kernels) {
    double[] bounds = bounds(model, data.features().columnMaxAbs());
    for (int k = 0; k < bounds.length; k++) {
      if (!(bounds[k] <= Float.MAX_VALUE)) {
        throw new ArithmeticException(
            String.format(
                Locale.ROOT,
                "the score of class %d can reach %.3g on these rows (|b_k| + sum_j |w_kj|"
                    + " max|x_j|), beyond float range (±3.4e38)",
                k,
                bounds[k]));
      }
    }
    int rows = data.rows();
    int step = Math.max(1, rows / SAMPLE_ROWS);
    int[] sample = new int[(rows + step - 1) / step];
    for (int i = 0; i < sample.length; i++) {
      sample[i] = i * step;
    }
    Dataset sampled = sample.length == rows ? data : data.subset(sample);
    new Predictor(model, kernels)
        .forEachScoreRow(sampled.features(), 0, sampled.rows(), 0, (row, scores) -> {});
  }

  /** Each class's largest |score| over rows whose features are bounded by {@code maxAbs}. */
  static double[] bounds(ScoreModel model, float[] maxAbs) {
    int classes = model.classes();
    int columns = model.columns();
    double[] bounds = new double[classes];
    switch (model) {
      case LinearModel linear -> {
        float[] w = linear.weights();
        for (int k = 0; k < classes; k++) {
          double sum = 0;
          for (int j = 0; j < columns; j++) {
            sum += Math.abs((double) w[k * columns + j]) * maxAbs[j];
          }
          bounds[k] = sum;
        }
      }
      case FactorizedModel f -> {
        int rank = f.rank();
        double[] embedding = new double[rank];
        for (int j = 0; j < columns; j++) {
          for (int r = 0; r < rank; r++) {
            embedding[r] += Math.abs((double) f.inputs()[j * rank + r]) * maxAbs[j];
          }
        }
        for (int k = 0; k < classes; k++) {
          double sum = 0;
          for (int r = 0; r < rank; r++) {
            sum += Math.abs((double) f.outputs()[k * rank + r]) * embedding[r];
          }
          bounds[k] = sum;
        }
      }
    }
    double[] b = model.biases();
    for (int k = 0; k < classes; k++) {
      bounds[k] += Math.abs(b[k]);
    }
    return bounds;
  }
}
