package org.largecat.spark.cb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.largecat.cb.CaviFit;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CbMetrics;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.Design;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.cb.Link;
import org.largecat.kernel.Kernels;
import org.largecat.spark.Frames;

class CbPipelineTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = Frames.localSession();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /** The rows with an id column first, in the given partitions. */
  private static Dataset<Row> frame(org.largecat.data.Dataset data, boolean sparse, int parts) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < data.rows(); i++) {
      rows.add(
          RowFactory.create(
              (long) i, (double) data.labels()[i], CbSparkData.vector(data, i, sparse)));
    }
    return spark
        .createDataFrame(
            rows,
            new org.apache.spark.sql.types.StructType()
                .add("id", DataTypes.LongType, false)
                .add(CbSparkData.SCHEMA.apply("label"))
                .add(CbSparkData.SCHEMA.apply("features")))
        .repartition(parts);
  }

  /**
   * Fit in a Pipeline, transform, save, load, transform again: the same columns; and the BMA (or
   * CBC, CBM) probabilities are those of the single-machine fit and predictor on the same rows.
   */
  @ParameterizedTest(name = "{0} diagonal={1} sparse={2} {3}")
  @CsvSource({"probit,false,false,bma", "logit,true,true,cbc", "logit,false,false,cbm"})
  void fitSaveLoadTransformMatchesTheSingleMachine(
      String link, boolean diagonal, boolean sparse, String likelihood, @TempDir Path dir)
      throws Exception {
    org.largecat.data.Dataset train = CbSparkData.simulated(600, 6, 5, sparse, 3);
    org.largecat.data.Dataset test = CbSparkData.simulated(150, 6, 5, sparse, 4);
    CbClassifier classifier =
        new CbClassifier()
            .setLink(link)
            .setDiagonal(diagonal)
            .setMaxIter(12)
            .setTol(1e-9)
            .setPriorVariance(2.0)
            .setEvidenceSamples(3)
            .setSeed(5)
            .setLikelihood(likelihood)
            .setTopK(3);
    Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {classifier});
    PipelineModel fitted = pipeline.fit(frame(train, sparse, 3));
    Dataset<Row> scored = fitted.transform(frame(test, sparse, 2)).orderBy("id");
    List<Row> before = scored.collectAsList();

    String where = dir.resolve("model").toString();
    fitted.write().overwrite().save(where);
    assertTrue(Files.isDirectory(dir.resolve("model")));
    PipelineModel loaded = PipelineModel.load(where);
    List<Row> after = loaded.transform(frame(test, sparse, 2)).orderBy("id").collectAsList();
    assertEquals(
        List.of(scored.columns()), List.of(loaded.transform(frame(test, sparse, 2)).columns()));
    assertEquals(before, after);

    // Independent truth: the single-machine fit with the same settings on the same rows.
    Kernels kernels = Kernels.get();
    org.largecat.data.Dataset single = sparse ? CbSparkData.asSparse(train) : train;
    org.largecat.data.Dataset singleTest = sparse ? CbSparkData.asSparse(test) : test;
    CaviOptions options = new CaviOptions(Link.byLabel(link), diagonal, 12, 1e-9, 2);
    CaviFit fit = IbCavi.fit(single, GaussianPrior.isotropic(6, 2.0), options, kernels);
    CbPredictor predictor = new CbPredictor(fit.posterior(), kernels);
    CbPredictor.ModelEvidence evidence =
        predictor.evidence(Design.withIntercept(single.features(), kernels), single.labels(), 3, 5);
    CbPredictor.Predictions p =
        predictor.plugIn(Design.withIntercept(singleTest.features(), kernels));
    double[] logp =
        switch (likelihood) {
          case "cbc" -> p.cbc();
          case "cbm" -> p.cbm();
          default -> CbPredictor.bmaLogProbabilities(p, evidence);
        };
    CbClassificationModel model = (CbClassificationModel) loaded.stages()[0];
    assertEquals(evidence.weightCbc(), model.evidence().weightCbc(), 1e-9);
    assertArrayEquals(fit.elbo(), model.elboTrace(), 1e-9 * Math.abs(fit.finalElbo()));
    int k = 6;
    for (int i = 0; i < before.size(); i++) {
      Row r = before.get(i);
      assertEquals((long) i, r.getLong(0));
      double[] probability = ((Vector) r.getAs("probability")).toArray();
      int best = 0;
      for (int c = 0; c < k; c++) {
        assertEquals(Math.exp(logp[i * k + c]), probability[c], 1e-9, "row " + i + " class " + c);
        best = probability[c] > probability[best] ? c : best;
      }
      assertEquals(best, r.<Double>getAs("prediction"), 0.0, "row " + i);
      List<Integer> top = r.getList(r.fieldIndex("topK"));
      assertEquals(3, top.size());
      assertEquals(best, top.get(0));
      for (int j = 1; j < top.size(); j++) {
        assertTrue(probability[top.get(j - 1)] >= probability[top.get(j)], "row " + i);
      }
    }

    CbEvaluation.Scores scores = model.evaluate(frame(test, sparse, 2));
    double[][] single3 = {p.cbc(), p.cbm(), CbPredictor.bmaLogProbabilities(p, evidence)};
    assertEquals(test.rows(), scores.rows());
    for (int m = 0; m < 3; m++) {
      assertEquals(
          CbMetrics.meanLogLikelihood(single3[m], k, singleTest.labels()),
          scores.meanLogLikelihood()[m],
          1e-9,
          "model " + m);
      assertEquals(
          CbMetrics.accuracy(single3[m], k, singleTest.labels()),
          scores.accuracy()[m],
          1e-12,
          "model " + m);
    }
  }

  @Test
  void anUnfittedPipelineKeepsTheClassifiersParameters(@TempDir Path dir) throws Exception {
    CbClassifier classifier =
        new CbClassifier().setLink("logit").setDiagonal(true).setMaxIter(7).setTopK(2);
    Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {classifier});
    pipeline.write().save(dir.resolve("pipeline").toString());
    CbClassifier loaded =
        (CbClassifier) Pipeline.load(dir.resolve("pipeline").toString()).getStages()[0];
    assertEquals(classifier.uid(), loaded.uid());
    assertEquals("logit", loaded.getOrDefault(loaded.link()));
    assertEquals(true, loaded.getOrDefault(loaded.diagonal()));
    assertEquals(7, loaded.getOrDefault(loaded.maxIter()));
    assertEquals(2, loaded.getOrDefault(loaded.topK()));
    assertEquals("bma", loaded.getOrDefault(loaded.likelihood()));
  }

  @Test
  void badParametersAndColumnsAreRefusedWithTheFix() {
    org.largecat.data.Dataset train = CbSparkData.simulated(60, 3, 2, false, 1);
    Dataset<Row> rows = frame(train, false, 1);
    assertMessage(
        () -> new CbClassifier().setLink("tanh"),
        "link = tanh must be probit or logit; set it with setLink");
    assertMessage(() -> new CbClassifier().setMaxIter(0), "maxIter = 0 must be >= 1");
    assertMessage(() -> new CbClassifier().setNumClasses(1), "numClasses = 1 must be >= 2");
    assertMessage(
        () -> new CbClassifier().setPriorVariance(Double.NaN), "priorVariance = NaN must be");
    assertMessage(() -> new CbClassifier().setLikelihood("softmax"), "must be one of cbc|cbm|bma");
    assertMessage(
        () -> new CbClassifier().setFeaturesCol("x").fit(rows),
        "featuresCol = x is not a column of [id, label, features]");
    assertMessage(
        () -> new CbClassifier().setFeaturesCol("label").fit(rows),
        "featuresCol = label has type double, not a Spark ML vector");
    assertMessage(
        () ->
            new CbClassifier().setLabelCol("name").fit(rows.withColumn("name", functions.lit("a"))),
        "labelCol = name has type string, not a number");
    assertMessage(
        () -> new CbClassifier().setPredictionCol("id").fit(rows),
        "predictionCol = id is already a column");
    assertMessage(
        () -> new CbClassifier().fit(rows.withColumn("label", functions.lit(0.0))),
        "the largest label is 0.0");
    CbClassificationModel model = new CbClassifier().setMaxIter(2).fit(rows);
    assertMessage(
        () -> model.setTopKCol("probability").transform(rows), "give them three different names");
  }

  private static void assertMessage(org.junit.jupiter.api.function.Executable call, String part) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(part), e.getMessage());
  }
}
