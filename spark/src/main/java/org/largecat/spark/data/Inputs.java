package org.largecat.spark.data;

import java.io.IOException;
import java.util.Arrays;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.attribute.NominalAttribute;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.largecat.data.ReadOptions;

/**
 * Reads a data file of any {@link InputFormat} as a {@link LabeledFrame}: Extreme Classification
 * text through {@link XcTextSource}, the others through Spark's own sources. Parquet and CSV files
 * have a {@code label} column; their features are a {@code features} vector column or else every
 * other numeric column, assembled into one ({@link VectorAssembler}).
 */
public final class Inputs {
  private Inputs() {}

  /**
   * Reads {@code path} as {@code format}, in at least {@code partitions} partitions for the text
   * formats. {@code options} give the text formats' index bases (LibSVM: Spark's source takes
   * 1-based features only) and, for every format, the D and K the data must have (-1: the file's; K
   * then is the largest label + 1, one pass for Parquet, CSV and LibSVM).
   */
  public static LabeledFrame read(
      SparkSession spark, String path, InputFormat format, ReadOptions options, int partitions)
      throws IOException {
    if (format.textFormat() != null && format.textFormat() != options.format()) {
      throw new IllegalArgumentException(
          "read options for " + options.format() + " given to read " + format);
    }
    return switch (format) {
      case XC -> XcTextSource.read(spark, path, options, partitions);
      case LIBSVM -> libsvm(spark, path, options, partitions);
      case PARQUET -> labeled(spark.read().parquet(path), path, options);
      case CSV ->
          labeled(
              spark.read().option("header", "true").option("inferSchema", "true").csv(path),
              path,
              options);
    };
  }

  private static LabeledFrame libsvm(
      SparkSession spark, String path, ReadOptions options, int partitions) {
    if (options.featureBase() != 1) {
      throw new IllegalArgumentException(
          path
              + ": Spark's libsvm source reads 1-based feature indices only; renumber the file or"
              + " write it in the xc format");
    }
    var reader = spark.read().format("libsvm").option("minPartitions", partitions);
    if (options.columns() >= 0) {
      reader = reader.option("numFeatures", options.columns());
    }
    Dataset<Row> frame = reader.load(path);
    if (options.labelBase() != 0) {
      frame =
          frame.withColumn(
              LabeledFrame.LABEL, functions.col(LabeledFrame.LABEL).minus(options.labelBase()));
    }
    return labeled(frame, path, options);
  }

  /**
   * {@code frame}'s label column and its features (a vector column, or the numeric columns
   * assembled), with D and K found or checked and put in the columns' ML attributes.
   */
  private static LabeledFrame labeled(Dataset<Row> frame, String path, ReadOptions options) {
    StructType schema = frame.schema();
    if (!Arrays.asList(schema.fieldNames()).contains(LabeledFrame.LABEL)) {
      throw new IllegalArgumentException(
          path + ": no '" + LabeledFrame.LABEL + "' column among " + schema.simpleString());
    }
    Dataset<Row> features;
    if (Arrays.asList(schema.fieldNames()).contains(LabeledFrame.FEATURES)) {
      features = frame;
    } else {
      String[] numeric =
          Arrays.stream(schema.fields())
              .filter(f -> !f.name().equals(LabeledFrame.LABEL))
              .filter(f -> f.dataType() instanceof NumericType)
              .map(StructField::name)
              .toArray(String[]::new);
      if (numeric.length == 0) {
        throw new IllegalArgumentException(
            path + ": no '" + LabeledFrame.FEATURES + "' column and no numeric feature columns");
      }
      features =
          new VectorAssembler()
              .setInputCols(numeric)
              .setOutputCol(LabeledFrame.FEATURES)
              .setHandleInvalid("error")
              .transform(frame);
    }
    if (!features
        .schema()
        .apply(LabeledFrame.FEATURES)
        .dataType()
        .equals(SQLDataTypes.VectorType())) {
      throw new IllegalArgumentException(
          path + ": the '" + LabeledFrame.FEATURES + "' column is not a Spark ML vector");
    }
    Column label = functions.col(LabeledFrame.LABEL).cast("double");
    Row sizes =
        features
            .select(
                functions.max(label), functions.first(functions.col(LabeledFrame.FEATURES), true))
            .first();
    if (sizes.isNullAt(0)) {
      throw new IllegalArgumentException(path + ": the file has no examples");
    }
    double largest = sizes.getDouble(0);
    if (!(largest >= 0 && largest < Integer.MAX_VALUE - 8)) {
      throw new IllegalArgumentException(
          path + ": the largest label is " + largest + "; labels are class indices 0, 1, ...");
    }
    int classes = options.classes() > 0 ? options.classes() : (int) largest + 1;
    int found = ((Vector) sizes.get(1)).size();
    int columns = options.columns() >= 0 ? options.columns() : found;
    if (found != columns) {
      throw new IllegalArgumentException(
          path + ": the features have size " + found + " where the training set has " + columns);
    }
    Dataset<Row> labeled =
        features.select(
            label.as(
                LabeledFrame.LABEL,
                NominalAttribute.defaultAttr()
                    .withName(LabeledFrame.LABEL)
                    .withNumValues(classes)
                    .toMetadata()),
            functions
                .col(LabeledFrame.FEATURES)
                .as(
                    LabeledFrame.FEATURES,
                    new AttributeGroup(LabeledFrame.FEATURES, columns).toMetadata()));
    return new LabeledFrame(labeled, columns, classes);
  }
}
