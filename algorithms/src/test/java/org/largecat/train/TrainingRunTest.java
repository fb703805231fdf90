package org.largecat.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TrainingRunTest {
  /** Objectives -1, -1, ... then NaN from the given iteration on. */
  private static Trainer divergingAt(int iteration) {
    return new Trainer() {
      private int t;

      @Override
      public double step() {
        return ++t >= iteration ? Double.NaN : -1;
      }

      @Override
      public int iterationsPerEpoch() {
        return 4;
      }

      @Override
      public void close() {}
    };
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

  @Test
  void aFiniteRunReportsItsLastEpoch() {
    TrainingRun run = TrainingRun.run(divergingAt(100), 10, 1e9, (t, total, bound, seconds) -> {});
    assertEquals(10, run.iterations());
    assertEquals(-1, run.lastEpochBound());
  }
}
