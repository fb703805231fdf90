package org.largecat.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrainingRunTest {
  /** The objective of iteration t (from 0) of a scripted trainer, at the step's scale now. */
  private interface Script {
    double objective(int t, double stepScale);
  }

  /** A trainer of four iterations an epoch whose objectives follow {@code script}. */
  private static Trainer scripted(Script script) {
    return new Trainer() {
      private int t;
      private double scale = 1;

      @Override
      public double step() {
        return script.objective(t++, scale);
      }

      @Override
      public int iterationsPerEpoch() {
        return 4;
      }

      @Override
      public void scaleStepSize(double factor) {
        scale *= factor;
      }

      @Override
      public void close() {}
    };
  }

  /** Objectives -1, -1, ... then NaN from the given iteration (from 1) on. */
  private static Trainer divergingAt(int iteration) {
    return scripted((t, scale) -> t + 1 >= iteration ? Double.NaN : -1);
  }

  @Test
  void aNonFiniteObjectiveStopsTheRunNamingTheIteration() {
    TrainingDivergedException e =
        assertThrows(
            TrainingDivergedException.class,
            () -> TrainingRun.run(divergingAt(6), 20, 1e9, (t, total, bound, seconds) -> {}));
    assertEquals(
        "the training objective became NaN at iteration 6 (epoch 2); the model diverged and must"
            + " not be used",
        e.getMessage());
  }

  /** A trainer whose iterations each return their epoch's objective, from {@code byEpoch}. */
  private static Trainer epochs(double... byEpoch) {
    return scripted((t, scale) -> byEpoch[Math.min(t / 4, byEpoch.length - 1)]);
  }

  @Test
  void theRuleStopsAfterPatienceEpochsWithoutProgress() {
    // Improvements: 0.5, 0.2, 2.5e-5, 2.5e-5, 0.1 (progress again), 1e-5, 1e-5, 1e-5 → stop at 9.
    List<Double> improvements = new ArrayList<>();
    TrainingRun run =
        TrainingRun.until(
            epochs(-10, -5, -4, -3.9999, -3.9998, -3.6, -3.599964, -3.599928, -3.599892, -1),
            new StoppingRule(1e-4, 3, 100, Double.POSITIVE_INFINITY),
            (epoch, bound, improvement, seconds) -> improvements.add(improvement));
    assertEquals(TrainingRun.Stop.CONVERGED, run.stoppedBecause());
    assertEquals(Boolean.TRUE, run.converged());
    assertEquals(9, improvements.size());
    assertEquals(36, run.iterations());
    assertTrue(Double.isNaN(improvements.getFirst()));
    assertEquals(-3.599892, run.lastEpochBound());
    assertEquals(-3.599892, run.lastWatched(), "the rule watched the bound");
    assertEquals(1e-5, run.lastImprovement(), 1e-9);
  }

  @Test
  void theRuleStopsAtItsCapsAndSaysItDidNotConverge() {
    double[] improving = new double[60];
    for (int e = 0; e < improving.length; e++) {
      improving[e] = -100 * Math.pow(0.9, e);
    }
    TrainingRun capped =
        TrainingRun.until(
            epochs(improving),
            new StoppingRule(1e-4, 3, 20, Double.POSITIVE_INFINITY),
            (epoch, bound, improvement, seconds) -> {});
    assertEquals(TrainingRun.Stop.MAX_EPOCHS, capped.stoppedBecause());
    assertEquals(Boolean.FALSE, capped.converged());
    assertEquals(80, capped.iterations());
    assertEquals(improving[19], capped.lastWatched());
    TrainingRun timed =
        TrainingRun.until(
            epochs(improving),
            new StoppingRule(1e-4, 3, 20, 1e-9),
            (epoch, bound, improvement, seconds) -> {});
    assertEquals(TrainingRun.Stop.MAX_SECONDS, timed.stoppedBecause());
    assertEquals(4, timed.iterations());
    assertEquals(improving[0], timed.lastWatched());
  }

  @Test
  void theRuleCanWatchAHeldOutObjectiveInsteadOfTheBound() {
    double[] improving = new double[60];
    for (int e = 0; e < improving.length; e++) {
      improving[e] = -100 * Math.pow(0.9, e);
    }
    double[] heldOut = {-3, -2, -2, -2, -2, -1};
    int[] epoch = {0};
    TrainingRun run =
        TrainingRun.until(
            epochs(improving),
            new StoppingRule(1e-4, 3, 20, Double.POSITIVE_INFINITY),
            () -> heldOut[epoch[0]++],
            (e, watched, improvement, seconds) -> assertEquals(heldOut[e - 1], watched));
    assertEquals(TrainingRun.Stop.CONVERGED, run.stoppedBecause());
    assertEquals(20, run.iterations(), "three epochs without held-out progress after the second");
    assertEquals(-2, run.lastWatched(), "the held-out value after the fifth epoch, not the bound");
  }

  @Test
  void aWatchJudgesEpochsAsTheRuleDoesWithoutStoppingThem() {
    StoppingRule.Watch watch = new StoppingRule(1e-4, 3, 100, Double.POSITIVE_INFINITY).watch();
    assertTrue(Double.isNaN(watch.epoch(-10)));
    assertEquals(0.5, watch.epoch(-5), 1e-12);
    for (double bound : new double[] {-4.9999, -4.9998, -4.9997}) {
      watch.epoch(bound);
    }
    assertTrue(watch.converged(), "three epochs below the tolerance");
    watch.epoch(-4);
    assertFalse(watch.converged(), "progress again, past the point where the rule would stop");
    assertEquals(0.2, watch.lastImprovement(), 1e-4);
  }

  @Test
  void aFixedRunHasNoVerdictOnConvergence() {
    TrainingRun run = TrainingRun.run(divergingAt(100), 10, 1e9, (t, total, bound, seconds) -> {});
    assertEquals(TrainingRun.Stop.ITERATIONS, run.stoppedBecause());
    assertNull(run.converged());
    assertTrue(Double.isNaN(run.lastWatched()), "a fixed run watches nothing");
  }

  @Test
  void aFiniteRunReportsItsLastEpoch() {
    TrainingRun run = TrainingRun.run(divergingAt(100), 10, 1e9, (t, total, bound, seconds) -> {});
    assertEquals(10, run.iterations());
    assertEquals(-1, run.lastEpochBound());
  }

  /**
   * A trainer at its step's noise floor: every iteration's objective is −1 − {@code floor}·(the
   * step scale), so a smaller step is better until the floor is below the tolerance.
   */
  private static Trainer noiseFloor(double floor) {
    return scripted((t, scale) -> -1 - floor * scale);
  }

  /** The epochs at which {@code trainer}'s run under {@code rule} reduced its step. */
  private static List<Integer> reductionEpochs(Trainer trainer, StoppingRule rule) {
    List<Integer> epochs = new ArrayList<>();
    TrainingRun run =
        TrainingRun.until(
            trainer,
            rule,
            new TrainingRun.EpochProgress() {
              @Override
              public void epoch(int epoch, double watched, double improvement, double seconds) {}

              @Override
              public void stepReduced(int epoch, int reductions) {
                assertEquals(epochs.size() + 1, reductions);
                epochs.add(epoch);
              }
            });
    assertEquals(TrainingRun.Stop.CONVERGED, run.stoppedBecause());
    return epochs;
  }

  @Test
  void aPlateauDividesTheStepWhileThatStillPays() {
    StoppingRule rule = new StoppingRule(1e-4, 3, 100, Double.POSITIVE_INFINITY, 4);
    // Floor 1: the objective is -2, -1.2, -1.04, -1.008, -1.0016 after 0 to 4 divisions by 5, each
    // a gain above 1e-4. Epochs 2-4 are flat (the first has nothing to compare with); after each
    // division one epoch gains and three are flat.
    assertEquals(List.of(4, 8, 12, 16), reductionEpochs(noiseFloor(1), rule));
    // Floor 1e-5: the first division gains less than 1e-4, so the second plateau ends the run.
    assertEquals(List.of(4), reductionEpochs(noiseFloor(1e-5), rule));
    assertEquals(List.of(), reductionEpochs(noiseFloor(1), rule.withStepReductions(0)));
  }
}
