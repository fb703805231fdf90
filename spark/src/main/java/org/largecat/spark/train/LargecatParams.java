package org.largecat.spark.train;

import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.Params;

/**
 * The parameters {@link LargecatClassifier} and {@link LargecatClassificationModel} share, declared
 * once: each stage holds its own {@link Declared} (Spark finds the parameters through these public
 * methods), and the estimator copies their values to the model it fits.
 */
public interface LargecatParams extends Params {
  /** This stage's shared parameter objects. */
  Declared declared();

  default Param<String> labelCol() {
    return declared().labelCol;
  }

  default Param<String> featuresCol() {
    return declared().featuresCol;
  }

  default Param<String> predictionCol() {
    return declared().predictionCol;
  }

  default Param<String> probabilityCol() {
    return declared().probabilityCol;
  }

  default Param<String> topKCol() {
    return declared().topKCol;
  }

  default IntParam topK() {
    return declared().topK;
  }

  /** The shared parameter objects of one stage, with their defaults set on it. */
  final class Declared {
    final Param<String> labelCol;
    final Param<String> featuresCol;
    final Param<String> predictionCol;
    final Param<String> probabilityCol;
    final Param<String> topKCol;
    final IntParam topK;

    Declared(LargecatParams stage) {
      labelCol = new Param<>(stage, "labelCol", "label column: class indices 0 .. K - 1 (numeric)");
      featuresCol =
          new Param<>(stage, "featuresCol", "features column: Spark ML vectors of size D");
      predictionCol =
          new Param<>(stage, "predictionCol", "output: the most probable class (double)");
      probabilityCol =
          new Param<>(
              stage,
              "probabilityCol",
              "output: the class probabilities, a vector of size K: dense up to "
                  + LargecatClassificationModel.DENSE_PROBABILITIES
                  + " classes, beyond that sparse, holding the top-k classes' only");
      topKCol = new Param<>(stage, "topKCol", "output: the k most probable classes, most first");
      topK =
          new IntParam(
              stage,
              "topK",
              "k of the top-k column and of the top-k accuracy (>= 1)",
              ParamValidators.gtEq(1));
      stage.setDefault(labelCol, "label");
      stage.setDefault(featuresCol, "features");
      stage.setDefault(predictionCol, "prediction");
      stage.setDefault(probabilityCol, "probability");
      stage.setDefault(topKCol, "topK");
      stage.setDefault(topK, 5);
    }
  }
}
