package org.largecat.spark.cb;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.largecat.cb.CbMetrics;
import org.largecat.cb.CbPosterior;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.Design;
import org.largecat.kernel.Kernels;
import org.largecat.spark.ExecutorKernels;
import org.largecat.spark.data.PartitionRows;

/**
 * The holdout metrics of {@code largecat cavi} (App. G.1.2) for CBC, CBM and their BMA over a
 * DataFrame, in one pass: each partition scores its rows in chunks with the plug-in predictions and
 * one tree aggregation sums the log-likelihoods and the accuracy credits.
 */
public final class CbEvaluation {
  /**
   * Rows scored at once: their N x K probabilities stay small, and the predictor scores them on the
   * task's own thread.
   */
  private static final int ROW_CHUNK = CbPredictor.ROW_CHUNK;

  private CbEvaluation() {}

  /**
   * Mean log-likelihood and accuracy per model, in the order CBC, CBM, BMA, over {@code rows}
   * examples.
   */
  public record Scores(long rows, double[] meanLogLikelihood, double[] accuracy) {}

  /**
   * Scores q(B) ({@code state}, fitted under an N(0, {@code priorVariance} I) prior, with the BMA
   * weights of {@code evidence}) on the label column and features column of {@code data}.
   */
  public static Scores evaluate(
      Dataset<Row> data,
      String labelColumn,
      String featuresColumn,
      CbPosterior.State state,
      double priorVariance,
      CbPredictor.ModelEvidence evidence) {
    CbColumns.requireNumeric(data.schema(), labelColumn, "labelColumn");
    CbColumns.requireVector(data.schema(), featuresColumn, "featuresColumn");
    Broadcast<Scoring> scoring =
        JavaSparkContext.fromSparkContext(data.sparkSession().sparkContext())
            .broadcast(
                new Scoring(
                    state, priorVariance, evidence.logEvidenceCbc(), evidence.logEvidenceCbm()));
    try {
      double[] sums =
          data.select(labelColumn, featuresColumn)
              .toJavaRDD()
              .mapPartitions(rows -> List.of(scoring.value().sums(rows)).iterator())
              .treeReduce(CbEvaluation::add);
      long n = (long) sums[0];
      if (n == 0) {
        throw new IllegalArgumentException("the evaluated data have no rows");
      }
      double[] logLikelihood = new double[3];
      double[] accuracy = new double[3];
      for (int m = 0; m < 3; m++) {
        logLikelihood[m] = sums[1 + m] / n;
        accuracy[m] = sums[4 + m] / n;
      }
      return new Scores(n, logLikelihood, accuracy);
    } finally {
      scoring.destroy();
    }
  }

  private static double[] add(double[] a, double[] b) {
    double[] s = a.clone();
    for (int i = 0; i < s.length; i++) {
      s[i] += b[i];
    }
    return s;
  }

  /** What a task needs to score its rows. */
  private record Scoring(
      CbPosterior.State state, double priorVariance, double logEvidenceCbc, double logEvidenceCbm)
      implements java.io.Serializable {

    /**
     * The partition's row count, then per model (CBC, CBM, BMA) the sum of log p(y_i | x_i), then
     * per model the accuracy credits.
     */
    double[] sums(Iterator<Row> rows) {
      Kernels kernels = ExecutorKernels.get();
      CbPredictor predictor = CbClassificationModel.predictor(state, priorVariance, kernels);
      CbPredictor.ModelEvidence evidence =
          new CbPredictor.ModelEvidence(logEvidenceCbc, logEvidenceCbm, 1);
      int k = state.categories();
      double[] sums = new double[7];
      List<Row> chunk = new ArrayList<>(ROW_CHUNK);
      while (rows.hasNext()) {
        chunk.clear();
        while (chunk.size() < ROW_CHUNK && rows.hasNext()) {
          chunk.add(rows.next());
        }
        org.largecat.data.Dataset part =
            PartitionRows.read(chunk.iterator(), 0, 1, state.dimension() - 1, k);
        CbPredictor.Predictions p =
            predictor.plugIn(Design.withIntercept(part.features(), kernels));
        double[][] logp = {p.cbc(), p.cbm(), CbPredictor.bmaLogProbabilities(p, evidence)};
        int n = part.rows();
        sums[0] += n;
        for (int m = 0; m < 3; m++) {
          sums[1 + m] += n * CbMetrics.meanLogLikelihood(logp[m], k, part.labels());
          sums[4 + m] += n * CbMetrics.accuracy(logp[m], k, part.labels());
        }
      }
      return sums;
    }
  }
}
