package org.largecat.spark.eval;

import java.util.Arrays;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Checks of a DataFrame's label and features columns, each failure one line that names the fix. */
public final class Columns {
  private Columns() {}

  /** Refuses a schema without a numeric column {@code label}. */
  public static void requireLabel(StructType schema, String label) {
    StructField field = field(schema, label, "label");
    if (!(field.dataType() instanceof NumericType)) {
      throw new IllegalArgumentException(
          "label column '"
              + label
              + "' is "
              + field.dataType().simpleString()
              + ", not numeric; index string labels first (StringIndexer)");
    }
  }

  /** Refuses a schema without a Spark ML vector column {@code features}. */
  public static void requireFeatures(StructType schema, String features) {
    StructField field = field(schema, features, "features");
    if (!field.dataType().equals(SQLDataTypes.VectorType())) {
      throw new IllegalArgumentException(
          "features column '"
              + features
              + "' is "
              + field.dataType().simpleString()
              + ", not a Spark ML vector; assemble it first (VectorAssembler)");
    }
  }

  /** Refuses a schema that already has a column {@code name}, which an output would overwrite. */
  public static void requireAbsent(StructType schema, String name) {
    if (Arrays.asList(schema.fieldNames()).contains(name)) {
      throw new IllegalArgumentException(
          "output column '" + name + "' already exists; drop it or choose another name");
    }
  }

  private static StructField field(StructType schema, String name, String role) {
    if (!Arrays.asList(schema.fieldNames()).contains(name)) {
      throw new IllegalArgumentException(
          role
              + " column '"
              + name
              + "' is not among the columns "
              + Arrays.toString(schema.fieldNames()));
    }
    return schema.apply(name);
  }
}
