package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SyntheticDataTest {

  @Test
  void sparseSetKeepsTheDensityAndItsLabelsFollowTheStoredEntriesOnly() {
    int rows = 4_000;
    int columns = 50;
    SyntheticSet set = SyntheticData.linearSoftmax(rows, columns, 7, 1.0, 0.1, 3);
    SparseFeatures x = assertInstanceOf(SparseFeatures.class, set.data().features());
    // Binomial(200,000, 0.1): the standard deviation is 134 entries.
    assertEquals(0.1 * rows * columns, x.storedValues(), 700);
    // The label is the argmax of w·x + b + Gumbel noise: the noiseless argmax over the stored
    // entries finds it far more often than the 1/K = 0.14 of a guess.
    int agree = 0;
    for (int n = 0; n < rows; n++) {
      int best = 0;
      double bestScore = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < 7; k++) {
        double score = set.biases()[k];
        for (int j = 0; j < columns; j++) {
          score += set.weights()[k * columns + j] * x.get(n, j);
        }
        if (score > bestScore) {
          bestScore = score;
          best = k;
        }
      }
      agree += best == set.data().labels()[n] ? 1 : 0;
    }
    assertTrue(
        agree / (double) rows > 0.4, agree + " labels of " + rows + " are the noiseless argmax");
  }

  @Test
  void densityOneIsTheDenseSet() {
    SyntheticSet dense = SyntheticData.linearSoftmax(300, 6, 5, 0.7, 9);
    SyntheticSet full = SyntheticData.linearSoftmax(300, 6, 5, 0.7, 1, 9);
    assertArrayEquals(dense.data().labels(), full.data().labels());
    assertArrayEquals(
        ((DenseFeatures) dense.data().features()).values(),
        ((DenseFeatures) full.data().features()).values());
  }

  @Test
  void densityOutsideTheUnitIntervalIsRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> SyntheticData.linearSoftmax(10, 3, 2, 1, 0, 1));
    assertThrows(
        IllegalArgumentException.class, () -> SyntheticData.linearSoftmax(10, 3, 2, 1, 1.5, 1));
  }
}
