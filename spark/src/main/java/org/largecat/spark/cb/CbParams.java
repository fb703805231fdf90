package org.largecat.spark.cb;

import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import org.largecat.cb.Link;

/**
 * The parameters of {@link CbClassifier} and {@link CbClassificationModel}, declared once: each
 * stage holds its own {@link Declared} (Spark finds the parameters through these public methods),
 * and every value is checked by {@link #check} whether it comes from a setter or from a ParamMap.
 */
public interface CbParams extends Params {
  /** The likelihoods a model's transform can use (Sec. 4): CBC, CBM or their BMA. */
  String LIKELIHOODS = "cbc|cbm|bma";

  /** This stage's parameter objects. */
  Declared declared();

  default Param<String> labelCol() {
    return declared().labelCol;
  }

  default Param<String> featuresCol() {
    return declared().featuresCol;
  }

  default Param<String> link() {
    return declared().link;
  }

  default BooleanParam diagonal() {
    return declared().diagonal;
  }

  default IntParam maxIter() {
    return declared().maxIter;
  }

  default DoubleParam tol() {
    return declared().tol;
  }

  default IntParam numClasses() {
    return declared().numClasses;
  }

  default DoubleParam priorVariance() {
    return declared().priorVariance;
  }

  default IntParam evidenceSamples() {
    return declared().evidenceSamples;
  }

  default LongParam seed() {
    return declared().seed;
  }

  default Param<String> predictionCol() {
    return declared().predictionCol;
  }

  default Param<String> probabilityCol() {
    return declared().probabilityCol;
  }

  default Param<String> likelihood() {
    return declared().likelihood;
  }

  default IntParam topK() {
    return declared().topK;
  }

  default Param<String> topKCol() {
    return declared().topKCol;
  }

  /**
   * Returns value if it is valid for the named parameter, else throws saying which parameter, why
   * and the fix.
   */
  static <T> T check(Param<T> param, T value) {
    String name = param.name();
    String why =
        switch (name) {
          case "labelCol", "featuresCol", "predictionCol", "probabilityCol", "topKCol" ->
              value == null || ((String) value).isBlank() ? "must name a column" : null;
          case "link" ->
              "probit".equals(value) || "logit".equals(value) ? null : "must be probit or logit";
          case "likelihood" ->
              "cbc".equals(value) || "cbm".equals(value) || "bma".equals(value)
                  ? null
                  : "must be one of " + LIKELIHOODS;
          case "maxIter", "evidenceSamples", "topK" ->
              value != null && (Integer) value >= 1 ? null : "must be >= 1";
          case "numClasses" ->
              value != null && ((Integer) value == 0 || (Integer) value >= 2)
                  ? null
                  : "must be >= 2 (or 0: max label + 1)";
          case "tol" ->
              value != null && (Double) value >= 0 && (Double) value < Double.POSITIVE_INFINITY
                  ? null
                  : "must be finite and >= 0 (0: run maxIter iterations)";
          case "priorVariance" ->
              value != null && (Double) value > 0 && (Double) value < Double.POSITIVE_INFINITY
                  ? null
                  : "must be positive and finite";
          default -> null;
        };
    if (why != null) {
      throw new IllegalArgumentException(
          name + " = " + value + " " + why + "; set it with set" + capitalised(name));
    }
    return value;
  }

  /** Checks every parameter's value of a stage (those set through a ParamMap included). */
  static void checkAll(CbParams stage) {
    for (Param<?> p : stage.params()) {
      checkOne(stage, p);
    }
  }

  private static <T> void checkOne(CbParams stage, Param<T> p) {
    check(p, stage.getOrDefault(p));
  }

  /** The link a stage's link parameter names. */
  static Link linkOf(CbParams stage) {
    return Link.byLabel(stage.getOrDefault(stage.link()));
  }

  private static String capitalised(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  /** The parameter objects of one stage, with their defaults set on it. */
  final class Declared {
    final Param<String> labelCol;
    final Param<String> featuresCol;
    final Param<String> link;
    final BooleanParam diagonal;
    final IntParam maxIter;
    final DoubleParam tol;
    final IntParam numClasses;
    final DoubleParam priorVariance;
    final IntParam evidenceSamples;
    final LongParam seed;
    final Param<String> predictionCol;
    final Param<String> probabilityCol;
    final Param<String> likelihood;
    final IntParam topK;
    final Param<String> topKCol;

    Declared(CbParams stage) {
      labelCol = new Param<>(stage, "labelCol", "the label column: class indices 0 .. K-1");
      featuresCol =
          new Param<>(stage, "featuresCol", "the features column: Spark ML vectors of size D");
      link = new Param<>(stage, "link", "the binary link of the IB base model: probit or logit");
      diagonal =
          new BooleanParam(
              stage, "diagonal", "the fully mean-field q(B) (Secs. D.4, E.4) instead of full");
      maxIter = new IntParam(stage, "maxIter", "the most CAVI iterations (>= 1)");
      tol =
          new DoubleParam(
              stage, "tol", "stop once an iteration raises the ELBO by <= tol * |ELBO| (>= 0)");
      numClasses = new IntParam(stage, "numClasses", "K (>= 2), or 0 for the largest label + 1");
      priorVariance =
          new DoubleParam(stage, "priorVariance", "v of the weights' N(0, v I) prior (> 0)");
      evidenceSamples =
          new IntParam(
              stage, "evidenceSamples", "draws of q(B) for the evidence behind the BMA weights");
      seed = new LongParam(stage, "seed", "the seed of those draws");
      predictionCol = new Param<>(stage, "predictionCol", "the predicted class index column");
      probabilityCol =
          new Param<>(stage, "probabilityCol", "the column of class probabilities (a vector)");
      likelihood =
          new Param<>(
              stage, "likelihood", "the likelihood of transform's probabilities: " + LIKELIHOODS);
      topK = new IntParam(stage, "topK", "how many classes the top-k column lists (>= 1)");
      topKCol =
          new Param<>(stage, "topKCol", "the column of the k most probable classes, best first");
      stage.setDefault(labelCol, "label");
      stage.setDefault(featuresCol, "features");
      stage.setDefault(link, "probit");
      stage.setDefault(diagonal, false);
      stage.setDefault(maxIter, 200);
      stage.setDefault(tol, 1e-6);
      stage.setDefault(numClasses, 0);
      stage.setDefault(priorVariance, 1.0);
      stage.setDefault(evidenceSamples, 10);
      stage.setDefault(seed, 1L);
      stage.setDefault(predictionCol, "prediction");
      stage.setDefault(probabilityCol, "probability");
      stage.setDefault(likelihood, "bma");
      stage.setDefault(topK, 5);
      stage.setDefault(topKCol, "topK");
    }
  }
}
