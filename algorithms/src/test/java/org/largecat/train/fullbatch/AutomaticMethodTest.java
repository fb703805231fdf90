package org.largecat.train.fullbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.data.SyntheticData;
import org.largecat.train.Method;

class AutomaticMethodTest {
  private static final Dataset SMALL = SyntheticData.linearSoftmax(2_000, 10, 20, 1.0, 3).data();

  @Test
  void aSmallProblemGoesToTheFullBatchSolver() {
    AutomaticMethod choice = AutomaticMethod.choose(SMALL, 2, 300, true);
    assertEquals(Method.EXACT_SOFTMAX, choice.method(), choice.reason());
  }

  @Test
  void aProblemBeyondTheTimeBudgetGoesToArSoftmax() {
    // 150 passes of 2 × 2,000 × 10 × 20 multiply-adds at 2e9 a second: 0.06 s; with the prior's
    // path three times that.
    AutomaticMethod choice = AutomaticMethod.choose(SMALL, 1, 0.1, false);
    assertEquals(Method.EXACT_SOFTMAX, choice.method(), choice.reason());
    choice = AutomaticMethod.choose(SMALL, 1, 0.1, true);
    assertEquals(Method.AR_SOFTMAX, choice.method());
    assertTrue(choice.reason().contains("estimated 0 s (450 passes"), choice.reason());
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
    AutomaticMethod choice = AutomaticMethod.choose(wide, 2, 300, true);
    assertEquals(Method.AR_SOFTMAX, choice.method());
    assertTrue(choice.reason().contains("L-BFGS state needs"), choice.reason());
  }
}
