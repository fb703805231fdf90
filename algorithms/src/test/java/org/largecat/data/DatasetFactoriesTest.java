package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Dataset#dense} and {@link Dataset#sparse}: what a program hands over from memory. */
class DatasetFactoriesTest {
  @Test
  void denseRowsAreCopiedIntoOneBlock() {
    float[][] x = {{1, 2, 3}, {4, 5, 6}};
    int[] y = {1, 0};
    Dataset data = Dataset.dense(x, y, 2);
    x[0][0] = 99;
    y[0] = 0;
    assertEquals(2, data.rows());
    assertEquals(3, data.columns());
    assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, ((DenseFeatures) data.features()).values());
    assertArrayEquals(new int[] {1, 0}, data.labels());
  }

  @Test
  void sparseRowsAgreeWithTheirDenseForm() {
    Dataset sparse =
        Dataset.sparse(
            new int[] {0, 2, 3},
            new int[] {0, 2, 1},
            new float[] {1, 3, 5},
            3,
            new int[] {1, 0},
            2);
    assertEquals(3, sparse.columns());
    assertEquals(3f, sparse.features().get(0, 2));
    assertEquals(5f, sparse.features().get(1, 1));
    assertEquals(0f, sparse.features().get(1, 0));
  }

  @Test
  void badRowsAreRefusedNamingTheRow() {
    assertMessage(
        "x[1] has 2 features where x[0] has 3",
        () -> Dataset.dense(new float[][] {{1, 2, 3}, {1, 2}}, new int[] {0, 0}, 1));
    assertMessage(
        "2 feature rows but 1 labels",
        () -> Dataset.dense(new float[][] {{1}, {2}}, new int[] {0}, 1));
    assertMessage(
        "row 1 holds the feature value NaN",
        () -> Dataset.dense(new float[][] {{1}, {Float.NaN}}, new int[] {0, 0}, 1));
    assertMessage(
        "labels[0] = 3 is outside [0, 3)",
        () -> Dataset.dense(new float[][] {{1}}, new int[] {3}, 3));
    assertMessage("x[0] is null", () -> Dataset.dense(new float[][] {null}, new int[] {0}, 1));
    assertMessage(
        "row 0 holds the feature value Infinity",
        () ->
            Dataset.sparse(
                new int[] {0, 1},
                new int[] {0},
                new float[] {Float.POSITIVE_INFINITY},
                2,
                new int[] {0},
                1));
    assertMessage(
        "row 0: column index 4 is outside [0, 2)",
        () ->
            Dataset.sparse(new int[] {0, 1}, new int[] {4}, new float[] {1}, 2, new int[] {0}, 1));
  }

  private static void assertMessage(String start, Runnable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
    assertTrue(e.getMessage().startsWith(start), e.getMessage());
  }
}
