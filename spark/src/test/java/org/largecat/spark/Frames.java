package org.largecat.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SparseFeatures;

/** Test data as DataFrames: a {@link Dataset}'s rows as (label, features), in its row order. */
public final class Frames {
  public static final StructType SCHEMA =
      new StructType()
          .add("label", DataTypes.DoubleType, false)
          .add("features", SQLDataTypes.VectorType(), false);

  private Frames() {}

  /** The rows of {@code data}, cut in order into {@code partitions} partitions. */
  /** The tests' Spark: local mode on two cores, no UI (each test class stops it when done). */
  public static SparkSession localSession() {
    return SparkSession.builder()
        .master("local[2]")
        .appName("largecat-test")
        .config("spark.ui.enabled", "false")
        .getOrCreate();
  }

  public static org.apache.spark.sql.Dataset<Row> of(
      SparkSession spark, Dataset data, int partitions) {
    List<Row> rows = new ArrayList<>();
    for (int n = 0; n < data.rows(); n++) {
      rows.add(RowFactory.create((double) data.labels()[n], vector(data, n)));
    }
    return spark.createDataFrame(
        JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows, partitions),
        SCHEMA);
  }

  private static Vector vector(Dataset data, int n) {
    int columns = data.columns();
    if (data.features() instanceof DenseFeatures dense) {
      double[] x = new double[columns];
      for (int j = 0; j < columns; j++) {
        x[j] = dense.values()[n * columns + j];
      }
      return Vectors.dense(x);
    }
    SparseFeatures sparse = (SparseFeatures) data.features();
    int from = sparse.indptr()[n];
    int to = sparse.indptr()[n + 1];
    int[] indices = new int[to - from];
    double[] values = new double[to - from];
    for (int j = from; j < to; j++) {
      indices[j - from] = sparse.indices()[j];
      values[j - from] = sparse.values()[j];
    }
    return Vectors.sparse(columns, indices, values);
  }
}
