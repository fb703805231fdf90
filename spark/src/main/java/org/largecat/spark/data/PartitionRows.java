package org.largecat.spark.data;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.largecat.MemoryBudget;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;

/**
 * The rows of one partition of a DataFrame, as the {@link Dataset} the single-machine algorithms
 * take: a label column of class indices in [0, K) and a features column of Spark ML vectors of size
 * D. The rows are stored dense when every row of the partition is a dense vector, else as CSR.
 */
public final class PartitionRows {
  private PartitionRows() {}

  /**
   * Reads every row of a partition (label at {@code labelIndex}, features at {@code
   * featuresIndex}); a label that is not a whole number in [0, classes), a vector of another size
   * than {@code columns}, or a non-finite feature value is refused with the row's position in the
   * partition and the fix.
   */
  public static Dataset read(
      Iterator<Row> rows, int labelIndex, int featuresIndex, int columns, int classes) {
    List<Vector> vectors = new ArrayList<>();
    List<Integer> labels = new ArrayList<>();
    long stored = 0;
    boolean allDense = true;
    while (rows.hasNext()) {
      Row row = rows.next();
      int n = vectors.size();
      labels.add(label(row, labelIndex, n, classes));
      Vector x = features(row, featuresIndex, n, columns);
      vectors.add(x);
      allDense &= x instanceof DenseVector;
      stored += x instanceof SparseVector sparse ? sparse.indices().length : columns;
    }
    int n = vectors.size();
    float[] values =
        new float[MemoryBudget.arrayLength("a partition's feature values", Float.BYTES, stored, 1)];
    int[] indptr = new int[n + 1];
    int[] indices = allDense ? null : new int[values.length];
    int at = 0;
    for (int i = 0; i < n; i++) {
      Vector x = vectors.get(i);
      int[] nonzeroColumns = x instanceof SparseVector sparse ? sparse.indices() : null;
      double[] nonzeroValues = x instanceof SparseVector sparse ? sparse.values() : x.toArray();
      for (int j = 0; j < nonzeroValues.length; j++, at++) {
        int column = nonzeroColumns == null ? j : nonzeroColumns[j];
        values[at] = finiteFloat(nonzeroValues[j], i, column);
        if (indices != null) {
          indices[at] = column;
        }
      }
      indptr[i + 1] = at;
    }
    Features features =
        allDense
            ? new DenseFeatures(n, columns, values)
            : new SparseFeatures(n, columns, indptr, indices, values);
    return new Dataset(features, labels.stream().mapToInt(Integer::intValue).toArray(), classes);
  }

  private static float finiteFloat(double v, int n, int column) {
    if (!Double.isFinite(v) || Math.abs(v) > Float.MAX_VALUE) {
      throw new IllegalArgumentException(
          "features of row "
              + n
              + " of a partition: value "
              + v
              + " at column "
              + column
              + " is not a finite float; drop or impute the row first");
    }
    return (float) v;
  }

  private static int label(Row row, int labelIndex, int n, int classes) {
    if (row.isNullAt(labelIndex)) {
      throw new IllegalArgumentException("label of row " + n + " of a partition is null");
    }
    double y = ((Number) row.get(labelIndex)).doubleValue();
    if (!(y >= 0 && y < classes && y == Math.rint(y))) {
      throw new IllegalArgumentException(
          "label of row "
              + n
              + " of a partition is "
              + y
              + ", not a class index in [0, "
              + classes
              + "); index the labels first (StringIndexer) or raise numClasses");
    }
    return (int) y;
  }

  private static Vector features(Row row, int featuresIndex, int n, int columns) {
    if (row.isNullAt(featuresIndex)) {
      throw new IllegalArgumentException("features of row " + n + " of a partition are null");
    }
    Vector x = row.getAs(featuresIndex);
    if (x.size() != columns) {
      throw new IllegalArgumentException(
          "features of row "
              + n
              + " of a partition have size "
              + x.size()
              + " where the others (or the model) have "
              + columns);
    }
    return x;
  }
}
