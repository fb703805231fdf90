package org.largecat.spark.cb;

import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.largecat.cb.CaviFit;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;

/**
 * A Spark ML estimator that fits the categorical-from-binary models' q(B) by data-parallel IB-CAVI
 * ({@link DistributedCavi}, Sec. 3.3) over a label column and a features column, and the BMA
 * weights of CBC and CBM (Sec. 4); the {@link CbClassificationModel} it gives predicts under CBC,
 * CBM or BMA.
 *
 * <pre>{@code
 * CbClassificationModel model = new CbClassifier().setLink("logit").setMaxIter(50).fit(train);
 * Dataset<Row> scored = model.transform(test); // probability, prediction, topK
 * }</pre>
 */
public final class CbClassifier extends Estimator<CbClassificationModel>
    implements CbParams, DefaultParamsWritable {
  private final String uid;
  private final Declared declared;

  public CbClassifier(String uid) {
    this.uid = uid;
    this.declared = new Declared(this);
  }

  public CbClassifier() {
    this(Identifiable.randomUID("cbClassifier"));
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public Declared declared() {
    return declared;
  }

  public CbClassifier setLabelCol(String value) {
    return put(labelCol(), value);
  }

  public CbClassifier setFeaturesCol(String value) {
    return put(featuresCol(), value);
  }

  /** probit or logit. */
  public CbClassifier setLink(String value) {
    return put(link(), value);
  }

  public CbClassifier setDiagonal(boolean value) {
    return put(diagonal(), value);
  }

  public CbClassifier setMaxIter(int value) {
    return put(maxIter(), value);
  }

  public CbClassifier setTol(double value) {
    return put(tol(), value);
  }

  /** K, or 0 (the default) for the largest label + 1, found by one pass. */
  public CbClassifier setNumClasses(int value) {
    return put(numClasses(), value);
  }

  public CbClassifier setPriorVariance(double value) {
    return put(priorVariance(), value);
  }

  public CbClassifier setEvidenceSamples(int value) {
    return put(evidenceSamples(), value);
  }

  public CbClassifier setSeed(long value) {
    return put(seed(), value);
  }

  public CbClassifier setPredictionCol(String value) {
    return put(predictionCol(), value);
  }

  public CbClassifier setProbabilityCol(String value) {
    return put(probabilityCol(), value);
  }

  /** cbc, cbm or bma (the default). */
  public CbClassifier setLikelihood(String value) {
    return put(likelihood(), value);
  }

  public CbClassifier setTopK(int value) {
    return put(topK(), value);
  }

  public CbClassifier setTopKCol(String value) {
    return put(topKCol(), value);
  }

  private <T> CbClassifier put(org.apache.spark.ml.param.Param<T> param, T value) {
    set(param, CbParams.check(param, value));
    return this;
  }

  /**
   * Fits q(B) on the label and features columns (the rows stay in their partitions) and estimates
   * the CBC and CBM evidence for the BMA weights.
   */
  @Override
  public CbClassificationModel fit(Dataset<?> dataset) {
    CbParams.checkAll(this);
    transformSchema(dataset.schema());
    String label = getOrDefault(labelCol());
    String features = getOrDefault(featuresCol());
    Dataset<Row> rows = dataset.toDF().select(label, features);
    int columns = CbColumns.featureSize(rows, features);
    int given = (Integer) getOrDefault(numClasses());
    int classes = given > 0 ? given : CbColumns.classesFromLabels(rows, label);
    double variance = (Double) getOrDefault(priorVariance());
    CaviOptions options =
        new CaviOptions(
            CbParams.linkOf(this),
            (Boolean) getOrDefault(diagonal()),
            (Integer) getOrDefault(maxIter()),
            (Double) getOrDefault(tol()),
            1);
    try (DistributedCavi run =
        DistributedCavi.start(
            rows,
            label,
            features,
            columns,
            classes,
            GaussianPrior.isotropic(columns + 1, variance),
            options)) {
      CaviFit fit = IbCavi.iterate(run, options);
      CbPredictor.ModelEvidence evidence =
          run.evidence((Integer) getOrDefault(evidenceSamples()), (Long) getOrDefault(seed()));
      CbClassificationModel model =
          new CbClassificationModel(uid, fit.posterior().state(), variance, evidence, fit.elbo())
              .setParent(this);
      return copyValues(model, ParamMap.empty());
    }
  }

  @Override
  public StructType transformSchema(StructType schema) {
    CbColumns.requireNumeric(schema, getOrDefault(labelCol()), "labelCol");
    return CbClassificationModel.outputSchema(this, schema);
  }

  @Override
  public CbClassifier copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  public static MLReader<CbClassifier> read() {
    return new DefaultParamsReader<>();
  }

  public static CbClassifier load(String path) {
    return read().load(path);
  }
}
