package org.largecat.bench;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SparseFeatures;

/**
 * The synthetic inputs every benchmark draws from a seeded generator: Gaussian arrays, sets of
 * distinct indices, and datasets of unit-norm rows (dense, or sparse with a fixed count of nonzeros
 * per row), so that the shapes named in one benchmark mean the same in another.
 */
final class BenchData {
  private BenchData() {}

  /** n draws of N(0, scale²). */
  static float[] gaussianFloats(int n, double scale, SplittableRandom random) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (scale * random.nextGaussian());
    }
    return v;
  }

  /** count distinct integers from [0, bound), increasing. */
  static int[] distinctSorted(int count, int bound, SplittableRandom random) {
    return random.ints(0, bound).distinct().limit(Math.min(count, bound)).sorted().toArray();
  }

  /**
   * A dataset of {@code rows} examples with uniformly drawn labels; {@code nonzeros >= columns}
   * makes it dense.
   */
  static Dataset dataset(
      int rows, int columns, int nonzeros, int classes, SplittableRandom random) {
    var features =
        nonzeros >= columns
            ? dense(rows, columns, random)
            : sparse(rows, columns, nonzeros, random);
    return new Dataset(features, random.ints(rows, 0, classes).toArray(), classes);
  }

  /** Rows of Gaussian direction and unit norm. */
  static DenseFeatures dense(int rows, int columns, SplittableRandom random) {
    float[] values = new float[rows * columns];
    for (int n = 0; n < rows; n++) {
      double norm2 = 0;
      for (int j = 0; j < columns; j++) {
        float v = (float) random.nextGaussian();
        values[n * columns + j] = v;
        norm2 += v * v;
      }
      float scale = (float) (1 / Math.sqrt(norm2));
      for (int j = 0; j < columns; j++) {
        values[n * columns + j] *= scale;
      }
    }
    return new DenseFeatures(rows, columns, values);
  }

  /** Rows of {@code perRow} distinct columns, each value 1/√perRow (unit norm). */
  static SparseFeatures sparse(int rows, int columns, int perRow, SplittableRandom random) {
    int[] indptr = new int[rows + 1];
    int[] indices = new int[rows * perRow];
    float[] values = new float[rows * perRow];
    for (int n = 0; n < rows; n++) {
      indptr[n + 1] = (n + 1) * perRow;
      System.arraycopy(distinctSorted(perRow, columns, random), 0, indices, n * perRow, perRow);
    }
    Arrays.fill(values, (float) (1 / Math.sqrt(perRow)));
    return new SparseFeatures(rows, columns, indptr, indices, values);
  }
}
