package org.largecat.train.fullbatch;

import java.util.Arrays;
import java.util.Random;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SparseFeatures;
import org.largecat.data.SyntheticData;

/** Small softmax problems for the full-batch tests, dense and with about a third of x stored. */
final class TestProblems {
  private TestProblems() {}

  /** Linear softmax data, x ~ N(0, I), dense. */
  static Dataset dense(int rows, int columns, int classes, long seed) {
    return SyntheticData.linearSoftmax(rows, columns, classes, 0.5, seed).data();
  }

  /** The same generator, each value kept with probability 1/3, stored as CSR. */
  static Dataset sparse(int rows, int columns, int classes, long seed) {
    Dataset data = dense(rows, columns, classes, seed);
    float[] x = ((DenseFeatures) data.features()).values();
    Random keep = new Random(seed);
    int[] indptr = new int[rows + 1];
    int[] indices = new int[x.length];
    float[] values = new float[x.length];
    int stored = 0;
    for (int n = 0; n < rows; n++) {
      for (int j = 0; j < columns; j++) {
        if (keep.nextInt(3) == 0) {
          indices[stored] = j;
          values[stored++] = x[n * columns + j];
        }
      }
      indptr[n + 1] = stored;
    }
    return new Dataset(
        new SparseFeatures(
            rows, columns, indptr, Arrays.copyOf(indices, stored), Arrays.copyOf(values, stored)),
        data.labels(),
        data.classes());
  }

  /** The same rows stored densely. */
  static Dataset densified(Dataset sparse) {
    return new Dataset(
        ((SparseFeatures) sparse.features()).toDense(), sparse.labels(), sparse.classes());
  }

  /** θ with N(0, scale²) entries. */
  static double[] randomParameters(int length, double scale, long seed) {
    Random random = new Random(seed);
    double[] theta = new double[length];
    for (int i = 0; i < theta.length; i++) {
      theta[i] = scale * random.nextGaussian();
    }
    return theta;
  }
}
