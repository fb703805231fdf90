package org.largecat.spark.cb;

import java.util.Arrays;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;

/** Checks of the CB stages' input and output columns, and the shape read from the data. */
final class CbColumns {
  private CbColumns() {}

  static void requireNumeric(StructType schema, String column, String param) {
    require(schema, column, param);
    if (!(schema.apply(column).dataType() instanceof NumericType)) {
      throw new IllegalArgumentException(
          param
              + " = "
              + column
              + " has type "
              + schema.apply(column).dataType().simpleString()
              + ", not a number; index string labels first (StringIndexer)");
    }
  }

  static void requireVector(StructType schema, String column, String param) {
    require(schema, column, param);
    if (!schema.apply(column).dataType().equals(SQLDataTypes.VectorType())) {
      throw new IllegalArgumentException(
          param
              + " = "
              + column
              + " has type "
              + schema.apply(column).dataType().simpleString()
              + ", not a Spark ML vector; assemble the features first (VectorAssembler)");
    }
  }

  static void requireAbsent(StructType schema, String column, String param) {
    if (Arrays.asList(schema.fieldNames()).contains(column)) {
      throw new IllegalArgumentException(
          param + " = " + column + " is already a column; set " + param + " to a new name");
    }
  }

  private static void require(StructType schema, String column, String param) {
    if (!Arrays.asList(schema.fieldNames()).contains(column)) {
      throw new IllegalArgumentException(
          param
              + " = "
              + column
              + " is not a column of "
              + Arrays.toString(schema.fieldNames())
              + "; set "
              + param
              + " to one of them");
    }
  }

  /** D: from the column's ML attributes when they give it, else from the first row's vector. */
  static int featureSize(Dataset<Row> rows, String column) {
    int size = AttributeGroup.fromStructField(rows.schema().apply(column)).size();
    if (size >= 0) {
      return size;
    }
    Row[] first = (Row[]) rows.select(column).head(1);
    if (first.length == 0) {
      throw new IllegalArgumentException("the data has no rows; IB-CAVI needs at least one");
    }
    return ((Vector) first[0].get(0)).size();
  }

  /** K as the largest label + 1 (one pass), at least 2. */
  static int classesFromLabels(Dataset<Row> rows, String column) {
    Row r = rows.agg(functions.max(column).cast("double")).head();
    if (r.isNullAt(0)) {
      throw new IllegalArgumentException(
          "the data has no labelled rows; IB-CAVI needs at least one");
    }
    double max = r.getDouble(0);
    if (!(max >= 1 && max < Integer.MAX_VALUE && max == Math.rint(max))) {
      throw new IllegalArgumentException(
          "the largest label is "
              + max
              + "; labels must be class indices 0 .. K-1 with K >= 2 (index them with"
              + " StringIndexer, or set numClasses)");
    }
    return (int) max + 1;
  }
}
