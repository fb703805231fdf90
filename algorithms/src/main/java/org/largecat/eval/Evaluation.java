package org.largecat.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.largecat.Parallel;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;

/**
 * Exact evaluation of a {@link LinearModel} on a dataset: the mean log-likelihood per example, the
 * accuracy and the top-k accuracy. All K utilities of each example are computed; the softmax's log
 * p is ψ_y − logsumexp(ψ) (A&R Eq. 1), probit and logistic go through {@link Predictor}. The
 * predicted class is the largest ψ (ties to the smaller index), which is the most probable class
 * under every link, since each is monotone in ψ_k.
 */
public final class Evaluation {
  private Evaluation() {}

  /** The measures of one evaluation. */
  public record Result(
      double meanLogLikelihood, double accuracy, double topKAccuracy, int topK, int examples) {}

  /**
   * Evaluates {@code model} on {@code data} with {@code threads} threads; examples split in fixed
   * chunks.
   */
  public static Result evaluate(
      LinearModel model, Dataset data, Kernels kernels, int topK, int threads) {
    if (model.classes() != data.classes() || model.columns() != data.columns()) {
      throw new IllegalArgumentException(
          "model is K = "
              + model.classes()
              + ", D = "
              + model.columns()
              + " but the data are K = "
              + data.classes()
              + ", D = "
              + data.columns());
    }
    if (topK < 1 || threads < 1) {
      throw new IllegalArgumentException(
          "topK = " + topK + " and threads = " + threads + " must be >= 1");
    }
    int n = data.rows();
    double[][] partial = new double[threads][3];
    List<Callable<Void>> chunks = new ArrayList<>();
    for (int r = 0; r < threads; r++) {
      int from = (int) ((long) n * r / threads);
      int to = (int) ((long) n * (r + 1) / threads);
      double[] out = partial[r];
      chunks.add(
          () -> {
            Predictor predictor = new Predictor(model, kernels);
            double[] psi = new double[model.classes()];
            for (int i = from; i < to; i++) {
              int y = data.labels()[i];
              predictor.utilities(data.features(), i, psi);
              out[0] += predictor.logProbability(psi, y);
              int rank = Predictor.rank(psi, y);
              out[1] += rank == 0 ? 1 : 0;
              out[2] += rank < topK ? 1 : 0;
            }
            return null;
          });
    }
    runAll(chunks, threads);
    double[] total = new double[3];
    for (double[] p : partial) {
      for (int j = 0; j < 3; j++) {
        total[j] += p[j];
      }
    }
    return new Result(total[0] / n, total[1] / n, total[2] / n, topK, n);
  }

  private static void runAll(List<Callable<Void>> tasks, int threads) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      Parallel.invokeAll(pool, tasks, "evaluation");
    } finally {
      pool.shutdownNow();
    }
  }
}
