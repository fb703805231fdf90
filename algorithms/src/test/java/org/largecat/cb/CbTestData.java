package org.largecat.cb;

import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SparseFeatures;

/** Small problems for the CB tests, and naive dense linear algebra to check the fits against. */
final class CbTestData {
  private CbTestData() {}

  /** G.1.1 data, K classes, M = 2K covariates. */
  static Dataset simulated(int rows, int classes, double sigmaHigh, long seed) {
    return simulated(rows, classes, 2 * classes, sigmaHigh, seed);
  }

  /** G.1.1 data with the number of covariates given. */
  static Dataset simulated(int rows, int classes, int covariates, double sigmaHigh, long seed) {
    return CbSimulation.generate(rows, classes, covariates, sigmaHigh, Math.sqrt(0.001), 0.5, seed)
        .data();
  }

  /** The same dataset with its features stored CSR (zeros dropped). */
  static Dataset asSparse(Dataset data) {
    DenseFeatures d = (DenseFeatures) data.features();
    int n = d.rows();
    int cols = d.columns();
    int[] indptr = new int[n + 1];
    int nnz = 0;
    for (float v : d.values()) {
      nnz += v != 0 ? 1 : 0;
    }
    int[] indices = new int[nnz];
    float[] values = new float[nnz];
    int at = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < cols; j++) {
        float v = d.values()[i * cols + j];
        if (v != 0) {
          indices[at] = j;
          values[at++] = v;
        }
      }
      indptr[i + 1] = at;
    }
    return new Dataset(
        new SparseFeatures(n, cols, indptr, indices, values), data.labels(), data.classes());
  }

  /** Dataset with half of every row's features zeroed, so the sparse path has real gaps. */
  static Dataset withZeros(Dataset data) {
    DenseFeatures d = (DenseFeatures) data.features();
    float[] v = d.values().clone();
    for (int i = 0; i < v.length; i++) {
      if ((i * 7 + i / d.columns()) % 2 == 0) {
        v[i] = 0;
      }
    }
    return new Dataset(new DenseFeatures(d.rows(), d.columns(), v), data.labels(), data.classes());
  }

  /** x_i with the intercept, as a double row. */
  static double[] row(Dataset data, int i) {
    int d = data.columns();
    double[] x = new double[d + 1];
    x[0] = 1;
    for (int j = 0; j < d; j++) {
      x[j + 1] = data.features().get(i, j);
    }
    return x;
  }

  /** Solves A x = b by Gaussian elimination with partial pivoting (A n x n row-major, copied). */
  static double[] solve(double[] a, double[] b) {
    int n = b.length;
    double[] m = a.clone();
    double[] x = b.clone();
    for (int c = 0; c < n; c++) {
      int p = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(m[r * n + c]) > Math.abs(m[p * n + c])) {
          p = r;
        }
      }
      for (int j = 0; j < n; j++) {
        double t = m[c * n + j];
        m[c * n + j] = m[p * n + j];
        m[p * n + j] = t;
      }
      double t = x[c];
      x[c] = x[p];
      x[p] = t;
      for (int r = c + 1; r < n; r++) {
        double f = m[r * n + c] / m[c * n + c];
        for (int j = c; j < n; j++) {
          m[r * n + j] -= f * m[c * n + j];
        }
        x[r] -= f * x[c];
      }
    }
    for (int r = n - 1; r >= 0; r--) {
      double s = x[r];
      for (int j = r + 1; j < n; j++) {
        s -= m[r * n + j] * x[j];
      }
      x[r] = s / m[r * n + r];
    }
    return x;
  }

  /** log det of a symmetric positive definite matrix, by the same elimination. */
  static double logDet(double[] a, int n) {
    double[] m = a.clone();
    double s = 0;
    for (int c = 0; c < n; c++) {
      for (int r = c + 1; r < n; r++) {
        double f = m[r * n + c] / m[c * n + c];
        for (int j = c; j < n; j++) {
          m[r * n + j] -= f * m[c * n + j];
        }
      }
      s += Math.log(m[c * n + c]);
    }
    return s;
  }
}
