package org.largecat.spark.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;
import org.largecat.spark.Frames;

class DistributedEvaluationTest {
  private static final int CLASSES = 30;
  private static final int COLUMNS = 12;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = Frames.localSession();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static LinearModel randomModel(Link link, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    LinearModel model = LinearModel.zeros(link, CLASSES, COLUMNS);
    for (int i = 0; i < model.weights().length; i++) {
      model.weights()[i] = (float) (0.4 * random.nextGaussian());
    }
    for (int k = 0; k < CLASSES; k++) {
      model.biases()[k] = 0.2 * random.nextGaussian();
    }
    return model;
  }

  private static void assertSameAsSingleMachine(ScoreModel model, Dataset data, int partitions) {
    Evaluation.Result single = Evaluation.evaluate(model, data, Kernels.get(), 5, 1);
    Evaluation.Result spread =
        DistributedEvaluation.evaluate(
            Frames.of(spark, data, partitions), "label", "features", model, 5);
    String what = model.link() + ", " + partitions + " partitions";
    assertEquals(
        single.meanLogLikelihood(),
        spread.meanLogLikelihood(),
        1e-12 * Math.abs(single.meanLogLikelihood()),
        what);
    assertEquals(single.accuracy(), spread.accuracy(), what);
    assertEquals(single.topKAccuracy(), spread.topKAccuracy(), what);
    assertEquals(single.examples(), spread.examples(), what);
  }

  @Test
  void equalsTheSingleMachineEvaluationForEveryLink() {
    Dataset dense = SyntheticData.linearSoftmax(3_000, COLUMNS, CLASSES, 0.5, 3).data();
    Dataset sparse = SyntheticData.linearSoftmax(3_000, COLUMNS, CLASSES, 0.5, 0.3, 4).data();
    for (Link link : Link.values()) {
      for (Dataset data : new Dataset[] {dense, sparse}) {
        assertSameAsSingleMachine(randomModel(link, link.ordinal()), data, 3);
      }
    }
  }

  @Test
  void equalsTheSingleMachineEvaluationForAFactorizedModel() {
    Dataset data = SyntheticData.linearSoftmax(2_000, COLUMNS, CLASSES, 0.5, 5).data();
    SplittableRandom random = new SplittableRandom(9);
    FactorizedModel model = FactorizedModel.zeros(Link.SOFTMAX, CLASSES, COLUMNS, 4);
    for (float[] table : new float[][] {model.inputs(), model.outputs()}) {
      for (int i = 0; i < table.length; i++) {
        table[i] = (float) (0.5 * random.nextGaussian());
      }
    }
    assertSameAsSingleMachine(model, data, 4);
  }

  @Test
  void refusesBadColumnsAndLabelsClearly() {
    Dataset data = SyntheticData.linearSoftmax(100, COLUMNS, CLASSES, 0.5, 3).data();
    LinearModel model = randomModel(Link.SOFTMAX, 1);
    var frame = Frames.of(spark, data, 2);
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> DistributedEvaluation.evaluate(frame, "y", "features", model, 5));
    assertTrue(
        missing.getMessage().contains("label column 'y' is not among"), missing.getMessage());
    IllegalArgumentException notVector =
        assertThrows(
            IllegalArgumentException.class,
            () -> DistributedEvaluation.evaluate(frame, "label", "label", model, 5));
    assertTrue(
        missing.getMessage() != null && notVector.getMessage().contains("not a Spark ML vector"));
    Exception tooFewClasses =
        assertThrows(
            Exception.class,
            () ->
                DistributedEvaluation.evaluate(
                    frame, "label", "features", LinearModel.zeros(Link.SOFTMAX, 2, COLUMNS), 1));
    assertTrue(
        String.valueOf(tooFewClasses.getMessage()).contains("not a class index in [0, 2)"),
        tooFewClasses.getMessage());
  }
}
