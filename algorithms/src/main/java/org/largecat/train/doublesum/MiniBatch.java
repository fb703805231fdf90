package org.largecat.train.doublesum;

import java.util.Arrays;
import org.largecat.kernel.Kernels;

/**
 * One of isgd-batch's fixed mini-batches S_j: its distinct labels L_j, each point's slot among
 * them, and the basis of the span of its extended rows x̃_i (App. F.3.4), computed once by
 * Gram–Schmidt, twice over, on the Gram matrix of the x̃_i (a QR factorisation that never forms V):
 * V = X̃ Tᵀ and b_i = (T G)_{·i}. A point within {@value #RANK_TOLERANCE} (relative) of the span of
 * the earlier ones adds no direction.
 *
 * @param labels L_j
 * @param slot each point's label's index in {@code labels}
 * @param rank the number of basis vectors
 * @param t T, rank × |S_j| row-major: v_l = Σ_i T[l][i] x̃_i
 * @param b B = T G, rank × |S_j| row-major: x̃_i = V b_i
 */
record MiniBatch(int[] labels, int[] slot, int rank, double[] t, double[] b) {
  private static final double RANK_TOLERANCE = 1e-10;

  /**
   * The batch of the {@code size} points {@code points[from ..]}; {@code scratch} holds D floats.
   */
  static MiniBatch of(
      AugmentedData data, Kernels kernels, int[] points, int from, int size, float[] scratch) {
    int[] labels = new int[size];
    int[] slot = new int[size];
    int distinct = 0;
    for (int a = 0; a < size; a++) {
      int y = data.labels[points[from + a]];
      int s = 0;
      while (s < distinct && labels[s] != y) {
        s++;
      }
      if (s == distinct) {
        labels[distinct++] = y;
      }
      slot[a] = s;
    }
    // Gram matrix of the extended rows: x_a·x_b + 1, x_b spread into a dense scratch row.
    double[] gram = new double[size * size];
    int[] only = {0};
    float[] plus = {1};
    float[] minus = {-1};
    double[] dot = new double[1];
    for (int b = 0; b < size; b++) {
      int rowB = points[from + b];
      data.features.scatterAxpy(kernels.vectorOps(), scratch, 1, rowB, only, 0, 1, plus, 0);
      for (int a = 0; a <= b; a++) {
        data.features.gatherDot(
            kernels.vectorOps(), scratch, 1, points[from + a], only, 0, 1, dot, 0);
        gram[a * size + b] = dot[0] + 1;
        gram[b * size + a] = dot[0] + 1;
      }
      data.features.scatterAxpy(kernels.vectorOps(), scratch, 1, rowB, only, 0, 1, minus, 0);
    }
    // Gram–Schmidt in coefficient space: v_l = Σ_i T[l][i] x̃_i, <v, x̃_i> = (T G)_{·i}.
    double[] t = new double[size * size];
    double[] candidate = new double[size];
    double[] gc = new double[size];
    int r = 0;
    for (int a = 0; a < size; a++) {
      Arrays.fill(candidate, 0);
      candidate[a] = 1;
      for (int pass = 0; pass < 2; pass++) {
        multiply(gram, size, candidate, gc);
        for (int l = 0; l < r; l++) {
          double projection = 0;
          for (int i = 0; i < size; i++) {
            projection += t[l * size + i] * gc[i];
          }
          for (int i = 0; i < size; i++) {
            candidate[i] -= projection * t[l * size + i];
          }
        }
      }
      multiply(gram, size, candidate, gc);
      double norm2 = 0;
      for (int i = 0; i < size; i++) {
        norm2 += candidate[i] * gc[i];
      }
      if (norm2 > RANK_TOLERANCE * gram[a * size + a]) {
        double inverse = 1 / Math.sqrt(norm2);
        for (int i = 0; i < size; i++) {
          t[r * size + i] = candidate[i] * inverse;
        }
        r++;
      }
    }
    double[] b = new double[r * size];
    for (int l = 0; l < r; l++) {
      for (int i = 0; i < size; i++) {
        double sum = 0;
        for (int c = 0; c < size; c++) {
          sum += t[l * size + c] * gram[c * size + i];
        }
        b[l * size + i] = sum;
      }
    }
    return new MiniBatch(Arrays.copyOf(labels, distinct), slot, r, Arrays.copyOf(t, r * size), b);
  }

  private static void multiply(double[] symmetric, int size, double[] x, double[] out) {
    for (int i = 0; i < size; i++) {
      double sum = 0;
      for (int c = 0; c < size; c++) {
        sum += symmetric[i * size + c] * x[c];
      }
      out[i] = sum;
    }
  }
}
