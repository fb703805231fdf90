package org.largecat.train.fullbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.data.SyntheticData;
import org.largecat.kernel.Kernels;
import org.largecat.train.Method;

class AutomaticMethodTest {
  private static final Dataset SMALL = SyntheticData.linearSoftmax(2_000, 10, 20, 1.0, 3).data();

  @Test
  void aSmallProblemGoesToTheFullBatchSolverWithTheEstimateOfItsTimedPass() {
    AutomaticMethod choice = AutomaticMethod.choose(SMALL, 2, 300, true, () -> 0.01);
    assertEquals(Method.EXACT_SOFTMAX, choice.method(), choice.reason());
    // 150 passes, three times over for the prior's path, at the 0.01 s a pass timed.
    assertEquals(4.5, choice.estimatedSeconds(), 1e-12);
    assertTrue(
        choice.reason().contains("about 5 s (450 passes at 0.0100 s a pass, timed"),
        choice.reason());
  }

  @Test
  void aTimedFitBeyondTheBudgetGoesToArSoftmax() {
    // One fit: 150 passes at 0.01 s.
    AutomaticMethod choice = AutomaticMethod.choose(SMALL, 2, 1, true, () -> 0.01);
    assertEquals(Method.AR_SOFTMAX, choice.method());
    assertTrue(choice.reason().contains("about 2 s (150 passes"), choice.reason());
    assertTrue(Double.isNaN(choice.estimatedSeconds()));
  }

  @Test
  void aPathBeyondTheBudgetStillChoosesTheSolverAndSaysTheBudgetCutsIt() {
    AutomaticMethod choice = AutomaticMethod.choose(SMALL, 2, 4, true, () -> 0.01);
    assertEquals(Method.EXACT_SOFTMAX, choice.method(), choice.reason());
    assertTrue(
        choice
            .reason()
            .endsWith("; the path stops at half the 4 s budget, the final fit at the rest"),
        choice.reason());
  }

  @Test
  void aProblemFarBeyondTheBudgetIsNotTimed() {
    // 150 passes of 2 × 2,000 × 10 × 20 multiply-adds at 2e9 a second on one thread: 0.06 s,
    // more than ten times a budget of 0.005 s.
    AutomaticMethod choice =
        AutomaticMethod.choose(
            SMALL,
            1,
            0.005,
            true,
            () -> {
              throw new AssertionError("timed a pass");
            });
    assertEquals(Method.AR_SOFTMAX, choice.method());
    assertTrue(choice.reason().contains("estimated 0 s (150 passes"), choice.reason());
  }

  @Test
  void aFactorizedStepIsChosenOnItsTimedEpoch() {
    // 50 epochs at 1 s fit 60 s; at 2 s they do not.
    AutomaticMethod fits = AutomaticMethod.chooseFactorized(10_000, 1_000, 16, 2, 60, () -> 1);
    assertEquals(Method.EXACT_SOFTMAX_SGD, fits.method(), fits.reason());
    assertEquals(50, fits.estimatedSeconds(), 1e-12);
    assertTrue(
        fits.reason().contains("about 50 s for 50 epochs at 1.00 s an epoch, timed here"),
        fits.reason());
    AutomaticMethod over = AutomaticMethod.chooseFactorized(10_000, 1_000, 16, 2, 60, () -> 2);
    assertEquals(Method.AR_SOFTMAX, over.method(), over.reason());
    assertTrue(over.reason().contains("about 100 s for 50 epochs"), over.reason());
  }

  @Test
  void aFactorizedStepFarBeyondTheBudgetIsNotTimed() {
    // 50 epochs of 4 × 10^6 × 10^4 × 100 multiply-adds at 4e9 a second on two threads: 2.5·10^5 s.
    AutomaticMethod choice =
        AutomaticMethod.chooseFactorized(
            1_000_000,
            10_000,
            100,
            2,
            300,
            () -> {
              throw new AssertionError("timed an epoch");
            });
    assertEquals(Method.AR_SOFTMAX, choice.method());
    assertTrue(choice.reason().contains("far more than 300 s"), choice.reason());
  }

  @Test
  void timingAPassGivesAFiniteTime() {
    double perPass = FullBatchSoftmax.secondsPerPass(SMALL, 2, Kernels.get());
    assertTrue(perPass > 0 && perPass < Double.POSITIVE_INFINITY, "seconds a pass " + perPass);
  }

  @Test
  void aModelWhoseSolverStateOutgrowsTheHeapGoesToArSoftmax() {
    // K = 100,000 classes over D = 2,000 features: 2·10^8 parameters, gigabytes per L-BFGS vector.
    int rows = 10;
    Dataset wide =
        new Dataset(
            new SparseFeatures(rows, 2_000, new int[rows + 1], new int[0], new float[0]),
            new int[rows],
            100_000);
    AutomaticMethod choice =
        AutomaticMethod.choose(
            wide,
            2,
            300,
            true,
            () -> {
              throw new AssertionError("timed a pass");
            });
    assertEquals(Method.AR_SOFTMAX, choice.method());
    assertTrue(choice.reason().contains("L-BFGS state needs"), choice.reason());
  }
}
