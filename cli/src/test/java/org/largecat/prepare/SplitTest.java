package org.largecat.prepare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SplitTest {

  @Test
  void stratifiedHoldsOutTheRoundedShareOfEachClassAndCoversEveryRowOnce() {
    int[] labels =
        IntStream.range(0, 214)
            .map(n -> n < 70 ? 0 : n < 146 ? 1 : n < 163 ? 2 : n < 176 ? 3 : n < 185 ? 4 : 5)
            .toArray();
    Split split = Split.stratified(labels, 6, 0.1, 1);
    assertEquals(
        22, split.test().length); // Glass's class sizes: 7 + 8 + 2 + 1 + 1 + 3, the paper's N_test
    int[] perClass = new int[6];
    for (int n : split.test()) {
      perClass[labels[n]]++;
    }
    assertArrayEquals(new int[] {7, 8, 2, 1, 1, 3}, perClass);
    int[] all =
        IntStream.concat(Arrays.stream(split.train()), Arrays.stream(split.test()))
            .sorted()
            .toArray();
    assertArrayEquals(IntStream.range(0, 214).toArray(), all);
    assertArrayEquals(split.test(), Split.stratified(labels, 6, 0.1, 1).test());
    assertFalse(Arrays.equals(split.test(), Split.stratified(labels, 6, 0.1, 2).test()));
  }

  @Test
  void tailHoldsOutTheLastRows() {
    Split split = Split.tail(5, 2);
    assertArrayEquals(new int[] {0, 1, 2}, split.train());
    assertArrayEquals(new int[] {3, 4}, split.test());
    assertThrows(IllegalArgumentException.class, () -> Split.tail(5, 5));
  }
}
