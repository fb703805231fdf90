package org.largecat.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetReader;
import org.largecat.data.ReadOptions;
import org.largecat.data.SparseFeatures;
import org.largecat.data.TextFormat;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.spark.eval.DistributedEvaluation;
import org.largecat.spark.train.DistributedTrainer;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.TrainingRun;
import org.largecat.train.sampled.SampledTrainer;

/**
 * One epoch of A&R softmax on an XC-format training set: the single-machine SampledTrainer on
 * THREADS threads against DistributedTrainer on local[THREADS] with as many partitions, ROUNDS
 * interleaved rounds, each run's epoch seconds and test log-likelihood; run by
 * bench/spark-train-vs-single.sh, which sets the class path and JVM options. usage:
 * TrainSparkTiming TRAIN TEST ROUNDS THREADS ROUNDS_PER_EPOCH
 */
public final class TrainSparkTiming {
  private TrainSparkTiming() {}

  public static void main(String[] args) throws Exception {
    Path trainFile = Path.of(args[0]);
    Path testFile = Path.of(args[1]);
    int rounds = Integer.parseInt(args[2]);
    int threads = Integer.parseInt(args[3]);
    int roundsPerEpoch = Integer.parseInt(args[4]);
    Dataset train =
        DatasetReader.read(trainFile, ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION));
    Dataset test =
        DatasetReader.read(
            testFile,
            ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION)
                .withShape(train.columns(), train.classes()));
    Kernels kernels = Kernels.get();
    System.out.println("kernels: " + kernels.describeChoice());
    SparkSession spark =
        SparkSession.builder()
            .master("local[" + threads + "]")
            .appName("largecat-bench")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.maxResultSize", "0")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    var trainFrame = frame(spark, train, threads).cache();
    var testFrame = frame(spark, test, threads).cache();
    System.out.printf(
        "N = %d, D = %d, K = %d, %d partitions, %d rounds an epoch, %d threads%n",
        trainFrame.count(), train.columns(), train.classes(), threads, roundsPerEpoch, threads);
    testFrame.count();
    SampledSpec options = SampledSpec.builder(Method.AR_SOFTMAX).threads(threads).build();
    for (int r = 1; r <= rounds; r++) {
      LinearModel single = start(train, options);
      try (SampledTrainer trainer = new SampledTrainer(train, single, options, kernels)) {
        TrainingRun run =
            TrainingRun.run(trainer, trainer.iterationsPerEpoch(), 1e9, (t, n, b, s) -> {});
        double ll = Evaluation.evaluate(single, test, kernels, 5, threads).meanLogLikelihood();
        System.out.printf(
            Locale.ROOT,
            "round %d single %.2f s, test log-likelihood %.5f%n",
            r,
            run.seconds(),
            ll);
      }
      single = null;
      LinearModel spread = start(train, options);
      long begin = System.nanoTime();
      try (DistributedTrainer trainer =
          new DistributedTrainer(
              trainFrame, "label", "features", spread, options, roundsPerEpoch)) {
        double load = (System.nanoTime() - begin) * 1e-9;
        TrainingRun run = TrainingRun.run(trainer, roundsPerEpoch, 1e9, (t, n, b, s) -> {});
        long evalBegin = System.nanoTime();
        double ll =
            DistributedEvaluation.evaluate(testFrame, "label", "features", spread, 5)
                .meanLogLikelihood();
        System.out.printf(
            Locale.ROOT,
            "round %d spark %.2f s (partitions read in %.2f s), test log-likelihood %.5f (distributed"
                + " evaluation %.2f s)%n",
            r,
            run.seconds(),
            load,
            ll,
            (System.nanoTime() - evalBegin) * 1e-9);
      }
    }
    spark.stop();
  }

  private static LinearModel start(Dataset train, SampledSpec options) {
    LinearModel model =
        LinearModel.zeros(options.method().link(), train.classes(), train.columns());
    SampledTrainer.initialise(model, options);
    return model;
  }

  private static org.apache.spark.sql.Dataset<Row> frame(
      SparkSession spark, Dataset data, int partitions) {
    SparseFeatures x = (SparseFeatures) data.features();
    List<Row> rows = new ArrayList<>(data.rows());
    for (int n = 0; n < data.rows(); n++) {
      int from = x.indptr()[n];
      int to = x.indptr()[n + 1];
      int[] indices = java.util.Arrays.copyOfRange(x.indices(), from, to);
      double[] values = new double[to - from];
      for (int j = from; j < to; j++) {
        values[j - from] = x.values()[j];
      }
      rows.add(
          RowFactory.create(
              (double) data.labels()[n], Vectors.sparse(data.columns(), indices, values)));
    }
    return spark.createDataFrame(
        JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows, partitions),
        new org.apache.spark.sql.types.StructType()
            .add("label", org.apache.spark.sql.types.DataTypes.DoubleType, false)
            .add("features", org.apache.spark.ml.linalg.SQLDataTypes.VectorType(), false));
  }
}
