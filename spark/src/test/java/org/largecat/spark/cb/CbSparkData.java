package org.largecat.spark.cb;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.largecat.cb.CbSimulation;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SparseFeatures;

/** App. G.1.1 data for the Spark tests, as single-machine datasets and as DataFrames. */
final class CbSparkData {
  private CbSparkData() {}

  static final StructType SCHEMA =
      new StructType()
          .add("label", DataTypes.DoubleType, false)
          .add("features", SQLDataTypes.VectorType(), false);

  /** G.1.1 data; with zeros, a third of the features are 0 (so a sparse copy has gaps). */
  static org.largecat.data.Dataset simulated(
      int rows, int classes, int covariates, boolean withZeros, long seed) {
    org.largecat.data.Dataset data =
        CbSimulation.generate(rows, classes, covariates, 2.0, Math.sqrt(0.001), 0.5, seed).data();
    if (!withZeros) {
      return data;
    }
    float[] v = ((DenseFeatures) data.features()).values().clone();
    for (int i = 0; i < v.length; i += 3) {
      v[i] = 0;
    }
    return new org.largecat.data.Dataset(
        new DenseFeatures(rows, covariates, v), data.labels(), classes);
  }

  /** The same rows stored CSR (zeros dropped). */
  static org.largecat.data.Dataset asSparse(org.largecat.data.Dataset data) {
    int n = data.rows();
    int d = data.columns();
    int[] indptr = new int[n + 1];
    List<Integer> indices = new ArrayList<>();
    List<Float> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < d; j++) {
        float x = data.features().get(i, j);
        if (x != 0) {
          indices.add(j);
          values.add(x);
        }
      }
      indptr[i + 1] = indices.size();
    }
    float[] v = new float[values.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = values.get(i);
    }
    return new org.largecat.data.Dataset(
        new SparseFeatures(n, d, indptr, indices.stream().mapToInt(i -> i).toArray(), v),
        data.labels(),
        data.classes());
  }

  /**
   * The rows as a DataFrame of (label, features) in the given partitions, vectors sparse or not.
   */
  static Dataset<Row> frame(
      SparkSession spark, org.largecat.data.Dataset data, boolean sparse, int partitions) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < data.rows(); i++) {
      rows.add(RowFactory.create((double) data.labels()[i], vector(data, i, sparse)));
    }
    return spark.createDataFrame(rows, SCHEMA).repartition(partitions);
  }

  static Vector vector(org.largecat.data.Dataset data, int i, boolean sparse) {
    double[] x = new double[data.columns()];
    for (int j = 0; j < x.length; j++) {
      x[j] = data.features().get(i, j);
    }
    Vector dense = Vectors.dense(x);
    return sparse ? dense.toSparse() : dense;
  }
}
