package org.largecat.spark.train;

import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.Identifiable;

/**
 * The parameters {@link LargecatClassifier} and {@link LargecatClassificationModel} share, made in
 * one place so both stages name, document and default them alike (the estimator copies their values
 * to the model it fits).
 */
final class StageParams {
  private StageParams() {}

  static Param<String> labelCol(Identifiable parent) {
    return new Param<>(parent, "labelCol", "label column: class indices 0 .. K - 1 (numeric)");
  }

  static Param<String> featuresCol(Identifiable parent) {
    return new Param<>(parent, "featuresCol", "features column: Spark ML vectors of size D");
  }

  static Param<String> predictionCol(Identifiable parent) {
    return new Param<>(parent, "predictionCol", "output: the most probable class (double)");
  }

  static Param<String> probabilityCol(Identifiable parent) {
    return new Param<>(
        parent,
        "probabilityCol",
        "output: the class probabilities, a vector of size K: dense up to "
            + LargecatClassificationModel.DENSE_PROBABILITIES
            + " classes, beyond that sparse, holding the top-k classes' only");
  }

  static Param<String> topKCol(Identifiable parent) {
    return new Param<>(parent, "topKCol", "output: the k most probable classes, most first");
  }

  static IntParam topK(Identifiable parent) {
    return new IntParam(
        parent,
        "topK",
        "k of the top-k column and of the top-k accuracy (>= 1)",
        ParamValidators.gtEq(1));
  }

  /** Sets the shared defaults on {@code stage}, whose shared parameters are those given. */
  static void setDefaults(
      Params stage,
      Param<String> labelCol,
      Param<String> featuresCol,
      Param<String> predictionCol,
      Param<String> probabilityCol,
      Param<String> topKCol,
      IntParam topK) {
    stage.setDefault(labelCol, "label");
    stage.setDefault(featuresCol, "features");
    stage.setDefault(predictionCol, "prediction");
    stage.setDefault(probabilityCol, "probability");
    stage.setDefault(topKCol, "topK");
    stage.setDefault(topK, 5);
  }
}
