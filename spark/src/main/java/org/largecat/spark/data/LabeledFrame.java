package org.largecat.spark.data;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A DataFrame of examples for the Spark stages: a {@code label} column of class indices in [0, K)
 * as doubles and a {@code features} column of Spark ML vectors of size D, with D and K (also in the
 * columns' ML attributes, where Spark ML classifiers look for them).
 *
 * @param frame the examples
 * @param columns D, the number of features
 * @param classes K, the number of classes
 */
public record LabeledFrame(Dataset<Row> frame, int columns, int classes) {
  /** The label column's name. */
  public static final String LABEL = "label";

  /** The features column's name. */
  public static final String FEATURES = "features";
}
