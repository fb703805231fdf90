package org.largecat.spark.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.spark.Frames;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.StoppingRule;
import org.largecat.train.TrainingRun;
import org.largecat.train.sampled.FactorizedTrainer;
import org.largecat.train.sampled.SampledTrainer;

class DistributedTrainerTest {
  private static final int CLASSES = 20;
  private static final int COLUMNS = 10;
  private static final int EPOCHS = 5;
  private static final SyntheticSet TRAIN =
      SyntheticData.linearSoftmax(20_000, COLUMNS, CLASSES, 0.5, 11);
  private static final SyntheticSet TEST =
      SyntheticData.linearSoftmax(5_000, COLUMNS, CLASSES, 0.5, 11);
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = Frames.localSession();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static SampledSpec options(Method method) {
    return SampledSpec.builder(method)
        .batch(200)
        .sampled(5)
        .threads(1)
        .seed(1)
        .stepSize(new StepSizeSchedule.Adaptive(0.05, 0.9, 2000, 0.1))
        .build();
  }

  private static LinearModel start(SampledSpec options) {
    LinearModel model = LinearModel.zeros(options.method().link(), CLASSES, COLUMNS);
    SampledTrainer.initialise(model, options);
    return model;
  }

  private static double testLogLikelihood(LinearModel model) {
    return Evaluation.evaluate(model, TEST.data(), Kernels.get(), 1, 1).meanLogLikelihood();
  }

  private static LinearModel distributed(Method method, int partitions, int roundsPerEpoch) {
    SampledSpec options = options(method);
    LinearModel model = start(options);
    org.apache.spark.sql.Dataset<Row> frame = Frames.of(spark, TRAIN.data(), partitions);
    try (DistributedTrainer trainer =
        new DistributedTrainer(frame, "label", "features", model, options, roundsPerEpoch)) {
      TrainingRun.run(trainer, EPOCHS * roundsPerEpoch, 60, (t, total, bound, seconds) -> {});
    }
    return model;
  }

  private static LinearModel singleMachine(Method method) {
    SampledSpec options = options(method);
    LinearModel model = start(options);
    try (SampledTrainer trainer = new SampledTrainer(TRAIN.data(), model, options, Kernels.get())) {
      TrainingRun.run(
          trainer, EPOCHS * trainer.iterationsPerEpoch(), 60, (t, total, bound, seconds) -> {});
    }
    return model;
  }

  @Test
  void reachesTheSingleMachineTestLogLikelihoodInTheSameEpochs() {
    for (Method method : new Method[] {Method.AR_SOFTMAX, Method.OVE}) {
      double single = testLogLikelihood(singleMachine(method));
      for (int partitions : new int[] {2, 4}) {
        double spread = testLogLikelihood(distributed(method, partitions, 10));
        assertEquals(
            single,
            spread,
            0.01 * Math.abs(single),
            method.label() + ", " + partitions + " partitions: test log-likelihood");
      }
    }
  }

  @Test
  void aSeedReproducesARunForAFixedPartitioning() {
    LinearModel first = distributed(Method.AR_SOFTMAX, 3, 5);
    LinearModel second = distributed(Method.AR_SOFTMAX, 3, 5);
    assertArrayEquals(first.weights(), second.weights());
    assertArrayEquals(first.biases(), second.biases());
  }

  @Test
  void theStoppingRuleEndsADistributedRun() {
    SampledSpec options = options(Method.AR_SOFTMAX);
    LinearModel model = start(options);
    try (DistributedTrainer trainer =
        new DistributedTrainer(
            Frames.of(spark, TRAIN.data(), 2), "label", "features", model, options, 5)) {
      TrainingRun run =
          TrainingRun.until(
              trainer, new StoppingRule(0.05, 1, 20, Double.POSITIVE_INFINITY), (e, w, i, s) -> {});
      assertEquals(TrainingRun.Stop.CONVERGED, run.stoppedBecause());
      assertTrue(run.iterations() < 20 * 5, run.iterations() + " rounds");
      assertEquals(0, run.iterations() % 5, "whole epochs of 5 rounds");
    }
  }

  @Test
  void trainsAFactorizedModel() {
    SampledSpec options = options(Method.AR_SOFTMAX);
    FactorizedModel model = FactorizedTrainer.initialModel(CLASSES, COLUMNS, options, 4);
    double before =
        Evaluation.evaluate(model, TEST.data(), Kernels.get(), 1, 1).meanLogLikelihood();
    try (DistributedTrainer trainer =
        new DistributedTrainer(
            Frames.of(spark, TRAIN.data(), 2), "label", "features", model, options, 5)) {
      TrainingRun.run(trainer, 10, 60, (t, total, bound, seconds) -> {});
    }
    double after = Evaluation.evaluate(model, TEST.data(), Kernels.get(), 1, 1).meanLogLikelihood();
    assertTrue(after > before + 0.3, "rank 4: " + before + " -> " + after);
  }

  @Test
  void refusesWhatItCannotTrainClearly() {
    var frame = Frames.of(spark, TRAIN.data(), 2);
    LinearModel softmax = start(options(Method.AR_SOFTMAX));
    IllegalArgumentException doubleSum =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new DistributedTrainer(
                    frame,
                    "label",
                    "features",
                    softmax,
                    DoubleSumSpec.builder(Method.UMAX).build(),
                    1));
    assertTrue(doubleSum.getMessage().startsWith("umax has no data-parallel trainer"));
    IllegalArgumentException link =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new DistributedTrainer(
                    frame, "label", "features", softmax, options(Method.AR_PROBIT), 1));
    assertEquals("ar-probit fits a PROBIT model, not SOFTMAX", link.getMessage());
    Exception rounds =
        assertThrows(
            Exception.class,
            () ->
                new DistributedTrainer(
                    frame, "label", "features", softmax, options(Method.OVE), 51));
    assertTrue(
        rounds.getMessage().contains("50 mini-batches an epoch, fewer than the 51 rounds"),
        rounds.getMessage());
  }
}
