package org.largecat.spark.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.eval.ClassRanks;
import org.largecat.eval.Evaluation;
import org.largecat.eval.Predictor;
import org.largecat.fit.Fit;
import org.largecat.fit.Watched;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ModelFile;
import org.largecat.model.ScoreModel;
import org.largecat.spark.Frames;
import org.largecat.train.TrainingRun;

class LargecatClassifierTest {
  private static final int CLASSES = 20;
  private static final int COLUMNS = 10;
  private static final Dataset TRAIN =
      SyntheticData.linearSoftmax(8_000, COLUMNS, CLASSES, 0.5, 11).data();
  private static final Dataset TEST =
      SyntheticData.linearSoftmax(2_000, COLUMNS, CLASSES, 0.5, 11).data();
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    spark = Frames.localSession();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static LargecatClassifier classifier(String method) {
    return new LargecatClassifier()
        .setMethod(method)
        .setEpochs(3)
        .setBatchSize(200)
        .setSampledClasses(5)
        .setStepSize(0.05)
        .setRoundsPerEpoch(5)
        .setTopK(3);
  }

  @Test
  void aPipelineFitsSavesLoadsAndTransforms() throws Exception {
    var train = Frames.of(spark, TRAIN, 2);
    var test = Frames.of(spark, TEST, 3);
    Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {classifier("ar-probit")});
    PipelineModel fitted = pipeline.fit(train);
    String pipelinePath = dir.resolve("pipeline").toString();
    pipeline.write().overwrite().save(pipelinePath);
    LargecatClassifier reloaded = (LargecatClassifier) Pipeline.load(pipelinePath).getStages()[0];
    assertEquals("ar-probit", reloaded.getOrDefault(reloaded.method()));
    String modelPath = dir.resolve("fitted").toString();
    fitted.write().overwrite().save(modelPath);
    PipelineModel loaded = PipelineModel.load(modelPath);
    LargecatClassificationModel before = (LargecatClassificationModel) fitted.stages()[0];
    LargecatClassificationModel after = (LargecatClassificationModel) loaded.stages()[0];
    LinearModel saved = (LinearModel) before.scoreModel();
    LinearModel read = (LinearModel) after.scoreModel();
    assertEquals(Link.PROBIT, read.link());
    assertArrayEquals(saved.weights(), read.weights());
    assertArrayEquals(saved.biases(), read.biases());
    assertEquals(3, (Integer) after.getOrDefault(after.topK()));

    List<Row> rows =
        loaded.transform(test).select("probability", "prediction", "topK").collectAsList();
    Predictor predictor = new Predictor(read, Kernels.get());
    double[] psi = new double[CLASSES];
    double[] logP = new double[CLASSES];
    for (int n = 0; n < TEST.rows(); n++) {
      predictor.utilities(TEST.features(), n, psi);
      predictor.logProbabilities(psi, logP);
      Vector p = rows.get(n).getAs(0);
      double sum = 0;
      for (int k = 0; k < CLASSES; k++) {
        assertEquals(Math.exp(logP[k]), p.apply(k), 1e-15, "row " + n + " class " + k);
        sum += p.apply(k);
      }
      assertEquals(1, sum, 1e-6, "row " + n);
      List<Integer> top = rows.get(n).getList(2);
      assertEquals(3, top.size());
      assertEquals(ClassRanks.rank(psi, top.get(0)), 0, "row " + n);
      assertEquals((double) top.get(0), rows.get(n).getDouble(1), "row " + n);
      assertTrue(logP[top.get(0)] >= logP[top.get(1)] && logP[top.get(1)] >= logP[top.get(2)]);
    }
  }

  @Test
  void aModelSavedBySparkIsTheModelFileTheCommandEvaluates() throws Exception {
    var test = Frames.of(spark, TEST, 3);
    LargecatClassificationModel model = classifier("ar-softmax").fit(Frames.of(spark, TRAIN, 2));
    String path = dir.resolve("model").toString();
    model.write().save(path);
    ScoreModel file =
        ModelFile.readScoreModel(Path.of(path, LargecatClassificationModel.MODEL_FILE));
    Evaluation.Result single = Evaluation.evaluate(file, TEST, Kernels.get(), 3, 2);
    Evaluation.Result spread = LargecatClassificationModel.load(path).evaluate(test);
    assertEquals(
        single.meanLogLikelihood(),
        spread.meanLogLikelihood(),
        1e-12 * Math.abs(single.meanLogLikelihood()));
    assertEquals(single.accuracy(), spread.accuracy());
    assertEquals(single.topKAccuracy(), spread.topKAccuracy());
    assertTrue(single.meanLogLikelihood() > -Math.log(CLASSES) + 0.3, "trained: " + single);
  }

  @Test
  void aModelFileWrittenBySingleMachineTrainingLoadsInSpark() throws Exception {
    LinearModel trained = LinearModel.zeros(Link.SOFTMAX, CLASSES, COLUMNS);
    SplittableRandom random = new SplittableRandom(4);
    for (int i = 0; i < trained.weights().length; i++) {
      trained.weights()[i] = (float) random.nextGaussian();
    }
    Path file = dir.resolve("single.bin");
    ModelFile.write(trained, file);
    LargecatClassificationModel model =
        LargecatClassificationModel.readModelFile(spark, file.toString());
    assertArrayEquals(trained.weights(), ((LinearModel) model.scoreModel()).weights());
    Evaluation.Result single = Evaluation.evaluate(trained, TEST, Kernels.get(), 5, 1);
    Evaluation.Result spread = model.evaluate(Frames.of(spark, TEST, 2));
    assertEquals(
        single.meanLogLikelihood(),
        spread.meanLogLikelihood(),
        1e-12 * Math.abs(single.meanLogLikelihood()));
  }

  @Test
  void manyClassesGiveOnlyTheTopKProbabilities() {
    int classes = LargecatClassificationModel.DENSE_PROBABILITIES + 500;
    LinearModel wide = LinearModel.zeros(Link.SOFTMAX, classes, COLUMNS);
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < wide.weights().length; i++) {
      wide.weights()[i] = (float) random.nextGaussian();
    }
    List<Row> rows =
        new LargecatClassificationModel("wide", wide)
            .transform(Frames.of(spark, TEST, 2).limit(50))
            .select("probability", "topK")
            .collectAsList();
    Predictor predictor = new Predictor(wide, Kernels.get());
    double[] psi = new double[classes];
    double[] logP = new double[classes];
    for (int n = 0; n < rows.size(); n++) {
      predictor.utilities(TEST.features(), n, psi);
      predictor.logProbabilities(psi, logP);
      SparseVector p = rows.get(n).getAs(0);
      assertEquals(classes, p.size());
      assertEquals(5, p.indices().length);
      for (int c : rows.get(n).<Integer>getList(1)) {
        assertEquals(Math.exp(logP[c]), p.apply(c), 1e-15, "row " + n + " class " + c);
      }
    }
  }

  /** The prior, the held-out slice and the time budget reach the fit as train's options do. */
  @Test
  void thePriorHeldOutSliceAndBudgetReachTheFit() {
    Fit given =
        new LargecatClassifier()
            .setPriorVariance(0.5)
            .setValidationFraction(0.2)
            .fitter()
            .fit(TRAIN);
    assertEquals(0.5, given.prior().variance());
    assertEquals("given", given.prior().reason());
    assertEquals(Watched.HELD_OUT_ROWS, given.watched());
    Fit defaults = new LargecatClassifier().fitter().fit(TRAIN);
    assertEquals(Watched.HELD_OUT_ROWS, defaults.watched());
    assertTrue(
        defaults.prior().reason().startsWith("chosen on the held-out rows"),
        defaults.prior().reason());
    Fit noneHeldOut = new LargecatClassifier().setValidationFraction(0).fitter().fit(TRAIN);
    assertEquals(Watched.TRAINING_ROWS, noneHeldOut.watched());
    Fit capped = new LargecatClassifier().setMaxSeconds(1e-6).fitter().fit(TRAIN);
    assertEquals(TrainingRun.Stop.MAX_SECONDS, capped.stoppedBecause());
    assertThrows(
        IllegalArgumentException.class, () -> new LargecatClassifier().setValidationFraction(1));
    assertThrows(
        IllegalArgumentException.class, () -> new LargecatClassifier().setPriorVariance(-1));
    assertThrows(IllegalArgumentException.class, () -> new LargecatClassifier().setMaxSeconds(0));
  }

  @Test
  void refusesBadParametersAndColumnsClearly() {
    var train = Frames.of(spark, TRAIN, 2);
    IllegalArgumentException method =
        assertThrows(IllegalArgumentException.class, () -> classifier("umax"));
    assertTrue(method.getMessage().contains("umax"), method.getMessage());
    assertThrows(IllegalArgumentException.class, () -> classifier("ove").setEpochs(0));
    IllegalArgumentException column =
        assertThrows(
            IllegalArgumentException.class, () -> classifier("ove").setFeaturesCol("x").fit(train));
    assertTrue(
        column.getMessage().startsWith("features column 'x' is not among the columns"),
        column.getMessage());
    IllegalArgumentException taken =
        assertThrows(
            IllegalArgumentException.class,
            () -> classifier("ove").setPredictionCol("label").fit(train));
    assertEquals(
        "output column 'label' already exists; drop it or choose another name", taken.getMessage());
    Exception classes =
        assertThrows(Exception.class, () -> classifier("ove").setNumClasses(5).fit(train));
    assertTrue(
        String.valueOf(classes.getMessage()).contains("not a class index in [0, 5)"),
        classes.getMessage());
  }
}
