package org.largecat.spark.train;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.largecat.fit.TrainingRows;
import org.largecat.kernel.Kernels;
import org.largecat.model.ScoreModel;
import org.largecat.spark.eval.DistributedEvaluation;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerSpec;

/**
 * A DataFrame's rows as the {@link org.largecat.fit.Fitter} trains them: in their partitions, by
 * {@link DistributedTrainer}, with what the stopping rule watches evaluated where the rows are.
 *
 * @param frame the examples
 * @param labelCol the column of class indices in [0, K)
 * @param featuresCol the column of Spark ML vectors of size D
 * @param rows N, counted once
 * @param classes K
 * @param columns D
 * @param roundsPerEpoch R, the rounds an epoch is cut into
 */
public record PartitionedRows(
    Dataset<Row> frame,
    String labelCol,
    String featuresCol,
    long rows,
    int classes,
    int columns,
    int roundsPerEpoch)
    implements TrainingRows {

  /** The rows of {@code frame}, counted. */
  public static PartitionedRows of(
      Dataset<Row> frame,
      String labelCol,
      String featuresCol,
      int classes,
      int columns,
      int roundsPerEpoch) {
    return new PartitionedRows(
        frame, labelCol, featuresCol, frame.count(), classes, columns, roundsPerEpoch);
  }

  @Override
  public Trainer trainer(ScoreModel model, TrainerSpec spec, Kernels kernels) {
    return new DistributedTrainer(frame, labelCol, featuresCol, model, spec, roundsPerEpoch);
  }

  @Override
  public Watch watch(ScoreModel model, int count, long seed, int threads, Kernels kernels) {
    Dataset<Row> sample =
        count >= rows
            ? frame
            : frame.sample(false, Math.min(1, 1.1 * count / rows), seed).limit(count);
    Dataset<Row> cached = sample.cache();
    int watched = (int) cached.count();
    return new Watch() {
      @Override
      public int rows() {
        return watched;
      }

      @Override
      public double getAsDouble() {
        return DistributedEvaluation.evaluate(cached, labelCol, featuresCol, model, 1)
            .meanLogLikelihood();
      }

      @Override
      public void close() {
        cached.unpersist();
      }
    };
  }

  @Override
  public TrainingRows[] holdOut(double fraction, long seed) {
    Dataset<Row>[] split = frame.randomSplit(new double[] {1 - fraction, fraction}, seed);
    return new TrainingRows[] {
      of(split[0], labelCol, featuresCol, classes, columns, roundsPerEpoch),
      of(split[1], labelCol, featuresCol, classes, columns, roundsPerEpoch)
    };
  }
}
