package org.largecat.data;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.largecat.MemoryBudget;
import org.largecat.kernel.Kernels;

/** Generators of datasets with known truth; the same seed gives the same set. */
public final class SyntheticData {
  /** Rows of rank-r data whose scores are one gemm. */
  private static final int BLOCK = 64;

  private SyntheticData() {}

  /**
   * The A&R paper's toy set (§4.1, after Titsias 2016): no covariates, label k with probability p_k
   * ∝ p̃_k² where p̃_k ~ U[0, 1]. The truth is a bias-only softmax with b_k = log p_k. The paper
   * uses {@code classes} = 10⁴ and {@code rows} = 3·10⁵.
   */
  public static SyntheticSet arToy(int classes, int rows, long seed) {
    requirePositive("classes", classes);
    requirePositive("rows", rows);
    MemoryBudget.arrayLength("the class probabilities (3 arrays), K", 3 * Double.BYTES, classes);
    MemoryBudget.arrayLength("the labels and row offsets, N + 1", 2 * Integer.BYTES, rows + 1L);
    SplittableRandom random = new SplittableRandom(seed);
    double[] p = new double[classes];
    double total = 0;
    for (int k = 0; k < classes; k++) {
      double u = random.nextDouble();
      p[k] = u * u;
      total += p[k];
    }
    double[] cumulative = new double[classes];
    double[] logP = new double[classes];
    double running = 0;
    for (int k = 0; k < classes; k++) {
      p[k] /= total;
      running += p[k];
      cumulative[k] = running;
      logP[k] = Math.log(p[k]);
    }
    int[] labels = new int[rows];
    for (int n = 0; n < rows; n++) {
      int k = Arrays.binarySearch(cumulative, random.nextDouble() * running);
      labels[n] = Math.min(k >= 0 ? k : -k - 1, classes - 1);
    }
    Features none = new SparseFeatures(rows, 0, new int[rows + 1], new int[0], new float[0]);
    return new SyntheticSet(new Dataset(none, labels, classes), new float[0], logP);
  }

  /**
   * Linear softmax data with covariates: x_n ~ N(0, I_D), W_kd ~ N(0, weightScale²), b_k ~ N(0,
   * weightScale²), y_n drawn from softmax(W x_n + b) exactly (Gumbel-max). Stored densely.
   */
  public static SyntheticSet linearSoftmax(
      int rows, int columns, int classes, double weightScale, long seed) {
    return linearSoftmax(rows, columns, classes, weightScale, 1, seed);
  }

  /**
   * As {@link #linearSoftmax(int, int, int, double, long)}, but each x_nd is nonzero (and then N(0,
   * 1)) with probability {@code density}; below 1 the features are stored sparse. Density 1 gives
   * the same set as the dense generator.
   */
  public static SyntheticSet linearSoftmax(
      int rows, int columns, int classes, double weightScale, double density, long seed) {
    requirePositive("rows", rows);
    requirePositive("columns", columns);
    requirePositive("classes", classes);
    if (!(weightScale > 0 && weightScale < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "weightScale = " + weightScale + " must be positive and finite");
    }
    if (!(density > 0 && density <= 1)) {
      throw new IllegalArgumentException("density = " + density + " must be in (0, 1]");
    }
    SplittableRandom random = new SplittableRandom(seed);
    float[] w =
        new float[MemoryBudget.arrayLength("the weights, K × D", Float.BYTES, classes, columns)];
    double[] b = new double[classes];
    for (int i = 0; i < w.length; i++) {
      w[i] = (float) (weightScale * random.nextGaussian());
    }
    for (int k = 0; k < classes; k++) {
      b[k] = (float) (weightScale * random.nextGaussian());
    }
    boolean dense = density == 1;
    float[] values =
        new float
            [dense
                ? MemoryBudget.arrayLength("the features, N × D", Float.BYTES, rows, columns)
                : MemoryBudget.arrayLength(
                    "the features' stored values, about 1.2 × density × N × D",
                    Float.BYTES,
                    (long) Math.ceil(1.2 * density * rows * columns))];
    int[] indices = dense ? null : new int[values.length];
    int[] indptr = new int[rows + 1];
    int[] labels = new int[rows];
    double[] score = new double[classes];
    for (int n = 0; n < rows; n++) {
      int at = indptr[n];
      for (int j = 0; j < columns; j++) {
        if (dense || random.nextDouble() < density) {
          if (at == values.length) {
            values = Arrays.copyOf(values, values.length + values.length / 2 + columns);
            indices = Arrays.copyOf(indices, values.length);
          }
          values[at] = (float) random.nextGaussian();
          if (!dense) {
            indices[at] = j;
          }
          at++;
        }
      }
      indptr[n + 1] = at;
      // Gumbel-max: y_n = argmax_k of b_k + g_k + w_k · x_n.
      for (int k = 0; k < classes; k++) {
        score[k] = b[k] - Math.log(-Math.log(random.nextDouble(Double.MIN_NORMAL, 1.0)));
      }
      for (int i = indptr[n]; i < at; i++) {
        int j = dense ? i - indptr[n] : indices[i];
        for (int k = 0; k < classes; k++) {
          score[k] += (double) w[k * columns + j] * values[i];
        }
      }
      double best = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < classes; k++) {
        if (score[k] > best) {
          best = score[k];
          labels[n] = k;
        }
      }
    }
    Features features =
        dense
            ? new DenseFeatures(rows, columns, values)
            : new SparseFeatures(
                rows,
                columns,
                indptr,
                Arrays.copyOf(indices, indptr[rows]),
                Arrays.copyOf(values, indptr[rows]));
    return new SyntheticSet(new Dataset(features, labels, classes), w, b);
  }

  /**
   * Rank-r softmax data: each x_nd is nonzero with probability {@code density} (then N(0, 1)),
   * V_dj, U_kj ~ N(0, weightScale²), b_k ~ N(0, 1), and y_n drawn from softmax(U h_n + b), h_n =
   * Σ_d x_nd v_d, by inverting its distribution function. Below density 1 the nonzeros are found by
   * geometric gaps, so a row costs O(nnz·r) to embed; the K·r work of its scores is done for a
   * block of rows at once, one float gemm H Uᵀ and the kernels' softmax per row, as evaluation
   * does. The random stream does not depend on the kernels, but a label can: a uniform draw that
   * falls within a float rounding of a class boundary. The features are stored sparse, dense at
   * density 1.
   */
  public static FactorizedSet factorizedSoftmax(
      Kernels kernels,
      int rows,
      int columns,
      int classes,
      int rank,
      double weightScale,
      double density,
      long seed) {
    requirePositive("rows", rows);
    requirePositive("columns", columns);
    requirePositive("classes", classes);
    requirePositive("rank", rank);
    if (!(weightScale > 0 && weightScale < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "weightScale = " + weightScale + " must be positive and finite");
    }
    if (!(density > 0 && density <= 1)) {
      throw new IllegalArgumentException("density = " + density + " must be in (0, 1]");
    }
    SplittableRandom random = new SplittableRandom(seed);
    float[] v =
        new float[MemoryBudget.arrayLength("the input weights, D × r", Float.BYTES, columns, rank)];
    float[] u =
        new float
            [MemoryBudget.arrayLength("the output weights, K × r", Float.BYTES, classes, rank)];
    double[] b = new double[classes];
    for (float[] table : new float[][] {v, u}) {
      for (int i = 0; i < table.length; i++) {
        table[i] = (float) (weightScale * random.nextGaussian());
      }
    }
    for (int k = 0; k < classes; k++) {
      b[k] = random.nextGaussian();
    }
    boolean dense = density == 1;
    long expected = (long) Math.ceil(1.2 * density * rows * columns) + columns;
    float[] values =
        new float
            [MemoryBudget.arrayLength(
                "the features' stored values, about 1.2 × density × N × D", Float.BYTES, expected)];
    int[] indices = new int[values.length];
    int[] indptr = new int[rows + 1];
    int[] labels = new int[rows];
    int block = Math.min(BLOCK, rows);
    double[] h = new double[rank];
    float[] embeddings = new float[block * rank];
    float[] probabilities = new float[Math.multiplyExact(block, classes)];
    double[] uniform = new double[block];
    double logKeep = Math.log1p(-density);
    for (int first = 0; first < rows; first += block) {
      int count = Math.min(block, rows - first);
      for (int i = 0; i < count; i++) {
        int n = first + i;
        int at = indptr[n];
        Arrays.fill(h, 0);
        // The gap to the next nonzero is geometric: Bernoulli(density) for every column.
        for (long j = dense ? 0 : gap(random, logKeep);
            j < columns;
            j += dense ? 1 : 1 + gap(random, logKeep)) {
          if (at == values.length) {
            values = Arrays.copyOf(values, values.length + values.length / 2 + columns);
            indices = Arrays.copyOf(indices, values.length);
          }
          float x = (float) random.nextGaussian();
          values[at] = x;
          indices[at++] = (int) j;
          for (int c = 0; c < rank; c++) {
            h[c] += (double) x * v[(int) j * rank + c];
          }
        }
        indptr[n + 1] = at;
        for (int c = 0; c < rank; c++) {
          embeddings[i * rank + c] = (float) h[c];
        }
        uniform[i] = random.nextDouble();
      }
      for (int i = 0; i < count; i++) {
        for (int k = 0; k < classes; k++) {
          probabilities[i * classes + k] = (float) b[k];
        }
      }
      kernels
          .matrixOps()
          .gemm(
              false,
              true,
              count,
              classes,
              rank,
              1f,
              embeddings,
              0,
              rank,
              u,
              0,
              rank,
              1f,
              probabilities,
              0,
              classes);
      for (int i = 0; i < count; i++) {
        int row = i * classes;
        kernels.vectorOps().softmax(classes, probabilities, row);
        double total = 0;
        for (int k = 0; k < classes; k++) {
          total += probabilities[row + k];
        }
        double target = uniform[i] * total;
        int k = 0;
        double running = probabilities[row];
        while (running <= target && k < classes - 1) {
          running += probabilities[row + ++k];
        }
        labels[first + i] = k;
      }
    }
    Features features;
    if (dense) {
      features = new DenseFeatures(rows, columns, Arrays.copyOf(values, indptr[rows]));
    } else {
      features =
          new SparseFeatures(
              rows,
              columns,
              indptr,
              Arrays.copyOf(indices, indptr[rows]),
              Arrays.copyOf(values, indptr[rows]));
    }
    return new FactorizedSet(new Dataset(features, labels, classes), rank, v, u, b);
  }

  /** The number of columns skipped before the next nonzero: ⌊log U / log(1 − density)⌋. */
  private static long gap(SplittableRandom random, double logKeep) {
    return (long) Math.floor(Math.log(random.nextDouble(Double.MIN_NORMAL, 1.0)) / logKeep);
  }

  private static void requirePositive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " = " + value + " must be >= 1");
    }
  }
}
