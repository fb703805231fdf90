package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Unit-norm rows (unbiased-scalable-softmax §4.1), dense and sparse, against values worked out by
 * hand.
 */
class PreprocessingTest {
  @Test
  void denseRowsGetUnitNormAndAZeroRowStaysZero() {
    Dataset data =
        new Dataset(
            new DenseFeatures(3, 2, new float[] {3, 4, 0, 0, -5, 12}), new int[] {0, 1, 1}, 2);
    Dataset unit = Preprocessing.unitRows(data);
    assertArrayEquals(
        new float[] {0.6f, 0.8f, 0, 0, -5 / 13f, 12 / 13f},
        ((DenseFeatures) unit.features()).values(),
        1e-7f);
    assertArrayEquals(data.labels(), unit.labels());
    assertEquals(3, ((DenseFeatures) data.features()).values()[0], "the input is left as it was");
  }

  @Test
  void sparseRowsGetUnitNormWithTheirPattern() {
    SparseFeatures x =
        new SparseFeatures(2, 5, new int[] {0, 2, 3}, new int[] {1, 4, 2}, new float[] {1, 1, -2});
    SparseFeatures unit =
        (SparseFeatures) Preprocessing.unitRows(new Dataset(x, new int[] {0, 0}, 1)).features();
    float half = (float) Math.sqrt(0.5);
    assertArrayEquals(new float[] {half, half, -1}, unit.values(), 1e-7f);
    assertArrayEquals(x.indices(), unit.indices());
    assertEquals(1, unit.squaredNorm(0), 1e-6);
  }

  /** Rows 0, 1, ..., n − 1 of one feature equal to their index, labelled index mod 7. */
  private static Dataset numbered(int n) {
    float[] x = new float[n];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      x[i] = i;
      labels[i] = i % 7;
    }
    return new Dataset(new DenseFeatures(n, 1, x), labels, 7);
  }

  @Test
  void holdOutSplitsTheRowsInTwoInTheirOrderTheSameForASeed() {
    int n = 1000;
    Dataset data = numbered(n);
    Dataset[] split = Preprocessing.holdOut(data, 0.1, 5);
    assertEquals(900, split[0].rows());
    assertEquals(100, split[1].rows());
    java.util.Set<Float> seen = new java.util.HashSet<>();
    for (Dataset part : split) {
      float previous = -1;
      for (int r = 0; r < part.rows(); r++) {
        float value = part.features().get(r, 0);
        assertEquals(true, value > previous, "each part keeps the file's order");
        assertEquals((int) value % 7, part.labels()[r]);
        assertEquals(true, seen.add(value), "no row in both parts");
        previous = value;
      }
    }
    assertEquals(n, seen.size());
    Dataset[] again = Preprocessing.holdOut(data, 0.1, 5);
    assertArrayEquals(split[1].labels(), again[1].labels());
    assertEquals(1, Preprocessing.holdOut(data, 1e-9, 5)[1].rows(), "at least one held out");
  }

  @Test
  void aSampleIsTheRowsHoldOutWouldHoldOutAndTheWholeSetWhenSmall() {
    Dataset data = numbered(1000);
    Dataset sample = Preprocessing.sample(data, 100, 5);
    Dataset held = Preprocessing.holdOut(data, 0.1, 5)[1];
    assertEquals(100, sample.rows());
    for (int r = 0; r < sample.rows(); r++) {
      assertEquals(held.features().get(r, 0), sample.features().get(r, 0));
    }
    assertArrayEquals(held.labels(), sample.labels());
    assertSame(data, Preprocessing.sample(data, 1000, 5));
    assertThrows(IllegalArgumentException.class, () -> Preprocessing.sample(data, 0, 5));
  }
}
