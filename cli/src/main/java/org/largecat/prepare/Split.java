package org.largecat.prepare;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.largecat.data.Dataset;

/**
 * Which rows of a source go to the training set and which to the test set; both in source order.
 */
public record Split(int[] train, int[] test) {

  /** The first {@code rows - testRows} rows train, the last {@code testRows} test. */
  public static Split tail(int rows, int testRows) {
    if (testRows < 1 || testRows >= rows) {
      throw new IllegalArgumentException("cannot hold out " + testRows + " of " + rows + " rows");
    }
    return new Split(range(0, rows - testRows), range(rows - testRows, rows));
  }

  /**
   * A seeded stratified split: within each class, in class order, the class's rows are shuffled by
   * one {@link SplittableRandom}{@code (seed)} stream and the first round(testFraction x count) go
   * to test, so every class keeps its share in both sets.
   */
  public static Split stratified(int[] labels, int classes, double testFraction, long seed) {
    int[] counts = new int[classes];
    for (int y : labels) {
      counts[y]++;
    }
    SplittableRandom random = new SplittableRandom(seed);
    boolean[] held = new boolean[labels.length];
    int testRows = 0;
    for (int c = 0; c < classes; c++) {
      int[] rows = new int[counts[c]];
      int size = 0;
      for (int n = 0; n < labels.length; n++) {
        if (labels[n] == c) {
          rows[size++] = n;
        }
      }
      for (int i = size - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        int t = rows[i];
        rows[i] = rows[j];
        rows[j] = t;
      }
      long take = Math.round(testFraction * size);
      for (int i = 0; i < take; i++) {
        held[rows[i]] = true;
        testRows++;
      }
    }
    int[] train = new int[labels.length - testRows];
    int[] test = new int[testRows];
    for (int n = 0, a = 0, b = 0; n < labels.length; n++) {
      if (held[n]) {
        test[b++] = n;
      } else {
        train[a++] = n;
      }
    }
    return new Split(train, test);
  }

  /** The training rows of {@code all}. */
  public Dataset trainOf(Dataset all) {
    return all.subset(train);
  }

  /** The test rows of {@code all}. */
  public Dataset testOf(Dataset all) {
    return all.subset(test);
  }

  private static int[] range(int from, int to) {
    int[] r = new int[to - from];
    Arrays.setAll(r, i -> from + i);
    return r;
  }
}
