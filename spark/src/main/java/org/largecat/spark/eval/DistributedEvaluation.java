package org.largecat.spark.eval;

import java.util.List;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.largecat.eval.Evaluation;
import org.largecat.model.ScoreModel;
import org.largecat.spark.ExecutorKernels;
import org.largecat.spark.data.PartitionRows;
import scala.reflect.ClassTag$;

/**
 * {@link Evaluation} over a DataFrame in one pass: each partition sums its examples' exact
 * log-probabilities (the softmax in closed form, probit and logistic by their quadrature), top-1
 * and top-k hits with the single-machine {@link Evaluation.Accumulator}, and a treeAggregate adds
 * the partitions' {@link Evaluation.Sums}. The result equals the single-machine evaluation of the
 * same rows up to the order of the log-likelihood's sum.
 */
public final class DistributedEvaluation {
  private DistributedEvaluation() {}

  /**
   * Evaluates {@code model} on the rows of {@code data}: class indices in [0, K) in {@code
   * labelCol}, Spark ML vectors of size D in {@code featuresCol}.
   */
  public static Evaluation.Result evaluate(
      org.apache.spark.sql.Dataset<Row> data,
      String labelCol,
      String featuresCol,
      ScoreModel model,
      int topK) {
    if (topK < 1) {
      throw new IllegalArgumentException("topK = " + topK + " must be >= 1");
    }
    Columns.requireLabel(data.schema(), labelCol);
    Columns.requireFeatures(data.schema(), featuresCol);
    Broadcast<ShippedModel> shipped =
        data.sparkSession()
            .sparkContext()
            .broadcast(ShippedModel.of(model), ClassTag$.MODULE$.apply(ShippedModel.class));
    try {
      Evaluation.Sums sums =
          data.select(labelCol, featuresCol)
              .javaRDD()
              .mapPartitions(
                  rows -> {
                    ScoreModel m = shipped.value().model();
                    Evaluation.Accumulator part =
                        new Evaluation.Accumulator(m, ExecutorKernels.get(), topK, 1);
                    part.add(PartitionRows.read(rows, 0, 1, m.columns(), m.classes()));
                    return List.of(part.sums()).iterator();
                  })
              .treeAggregate(Evaluation.Sums.NONE, Evaluation.Sums::plus, Evaluation.Sums::plus);
      if (sums.examples() == 0) {
        throw new IllegalArgumentException("the evaluation DataFrame has no rows");
      }
      return sums.result(topK);
    } finally {
      shipped.destroy();
    }
  }
}
