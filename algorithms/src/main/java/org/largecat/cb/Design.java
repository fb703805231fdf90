package org.largecat.cb;

import java.util.Objects;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;

/**
 * The design matrix X of the CB models (N x M, double): the features of a dataset with a constant
 * intercept column 1 prepended as column 0, as the paper's x-dot = (1, x) of App. G.1.1. The CB
 * code adds that column itself, so data files carry features only and M = D + 1.
 *
 * <p>Dense features become a row-major double copy whose products go through the matrix family
 * (gemm, syrk); CSR features stay CSR (the intercept as the first stored value of every row) and
 * their products are one axpy per stored value over a block of categories, so nothing N x K is ever
 * built from a sparse X (App. D.5): the trainers stream categories in blocks.
 */
public abstract sealed class Design {
  final Kernels kernels;
  final int rows;
  final int columns;

  private Design(Kernels kernels, int rows, int columns) {
    this.kernels = kernels;
    this.rows = rows;
    this.columns = columns;
  }

  /** X = [1, features] in double, dense or CSR as the features are. */
  public static Design withIntercept(Features features, Kernels kernels) {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(kernels, "kernels");
    return switch (features) {
      case DenseFeatures d -> Dense.of(d, kernels);
      case SparseFeatures s -> Sparse.of(s, kernels);
    };
  }

  /** Number of rows N. */
  public int rows() {
    return rows;
  }

  /** Number of columns M, the intercept included. */
  public int columns() {
    return columns;
  }

  /**
   * Rows of X per product with an M x cols matrix such that the product takes at most 2^17
   * multiply-adds (at least one row): OpenBLAS runs a gemm of m n k below 2^18 on the calling
   * thread, so code that already runs one chunk per core stays at one thread per core (threads of
   * OpenBLAS's own inside each worker oversubscribe the cores and halve the speed), and the chunk's
   * rows x cols results stay in cache for the work that follows.
   */
  int rowsPerProduct(int cols) {
    return Math.max(1, Math.min(rows, (1 << 17) / Math.max(1, cols * columns)));
  }

  /** Whether X is stored CSR. */
  public abstract boolean sparse();

  /**
   * out (rows [rowStart, rowStart + count) of X times B, count x cols, leading dimension cols) =
   * alpha * X[rows] * B, where B is M x cols at b[bOff] with leading dimension ldb.
   */
  abstract void multiply(
      int rowStart, int count, double alpha, double[] b, int bOff, int ldb, int cols, double[] out);

  /**
   * out (M x cols, leading dimension cols) += alpha * X[rows]^T * E over rows [rowStart, rowStart +
   * count) of X, E the count x cols row-major matrix e.
   */
  abstract void multiplyTransposedAdd(
      int rowStart, int count, double alpha, double[] e, int cols, double[] out);

  /**
   * The lower triangle of X^T diag(w) X (M x M) into out, w = 1 when weights is null; scratch N x M
   * when dense.
   */
  abstract void weightedGram(double[] weights, double[] scratch, double[] out);

  /**
   * out (M x count, leading dimension count) = the transpose of rows [rowStart, rowStart + count)
   * of X.
   */
  abstract void transposedRows(int rowStart, int count, double[] out);

  /** out[i] = sum_m x_im^2 v_m for every row i (the variance of x_i^T beta under a diagonal q). */
  abstract void squaredTimes(double[] v, double[] out);

  private static double finite(float value, int row, int column) {
    if (!Float.isFinite(value)) {
      throw new IllegalArgumentException(
          "feature (row "
              + row
              + ", column "
              + column
              + ") is "
              + value
              + "; the CB models need finite features");
    }
    return value;
  }

  /** Copies the upper triangle from the lower one, so the M x M matrix is whole. */
  static void symmetrize(int n, double[] a) {
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        a[i * n + j] = a[j * n + i];
      }
    }
  }

  /** Dense X, row-major. */
  static final class Dense extends Design {
    private final double[] x;

    private Dense(Kernels kernels, int rows, int columns, double[] x) {
      super(kernels, rows, columns);
      this.x = x;
    }

    static Dense of(DenseFeatures features, Kernels kernels) {
      int d = features.columns();
      int m = d + 1;
      double[] x = new double[Math.multiplyExact(features.rows(), m)];
      float[] v = features.values();
      for (int i = 0; i < features.rows(); i++) {
        x[i * m] = 1;
        for (int j = 0; j < d; j++) {
          x[i * m + 1 + j] = finite(v[i * d + j], i, j);
        }
      }
      return new Dense(kernels, features.rows(), m, x);
    }

    @Override
    public boolean sparse() {
      return false;
    }

    @Override
    void multiply(
        int rowStart,
        int count,
        double alpha,
        double[] b,
        int bOff,
        int ldb,
        int cols,
        double[] out) {
      kernels
          .matrixOps()
          .gemm(
              false,
              false,
              count,
              cols,
              columns,
              alpha,
              x,
              rowStart * columns,
              columns,
              b,
              bOff,
              ldb,
              0,
              out,
              0,
              cols);
    }

    @Override
    void multiplyTransposedAdd(
        int rowStart, int count, double alpha, double[] e, int cols, double[] out) {
      kernels
          .matrixOps()
          .gemm(
              true,
              false,
              columns,
              cols,
              count,
              alpha,
              x,
              rowStart * columns,
              columns,
              e,
              0,
              cols,
              1,
              out,
              0,
              cols);
    }

    @Override
    void weightedGram(double[] weights, double[] scratch, double[] out) {
      double[] a = x;
      if (weights != null) {
        for (int i = 0; i < rows; i++) {
          double s = Math.sqrt(weights[i]);
          for (int m = 0; m < columns; m++) {
            scratch[i * columns + m] = s * x[i * columns + m];
          }
        }
        a = scratch;
      }
      kernels.matrixOps().syrk(true, columns, rows, 1, a, 0, columns, 0, out, 0, columns);
    }

    @Override
    void transposedRows(int rowStart, int count, double[] out) {
      for (int i = 0; i < count; i++) {
        int from = (rowStart + i) * columns;
        for (int m = 0; m < columns; m++) {
          out[m * count + i] = x[from + m];
        }
      }
    }

    @Override
    void squaredTimes(double[] v, double[] out) {
      for (int i = 0; i < rows; i++) {
        double s = 0;
        for (int m = 0, at = i * columns; m < columns; m++, at++) {
          s += x[at] * x[at] * v[m];
        }
        out[i] = s;
      }
    }
  }

  /** CSR X; every row's first stored value is the intercept 1 in column 0. */
  static final class Sparse extends Design {
    private final int[] indptr;
    private final int[] indices;
    private final double[] values;

    private Sparse(
        Kernels kernels, int rows, int columns, int[] indptr, int[] indices, double[] values) {
      super(kernels, rows, columns);
      this.indptr = indptr;
      this.indices = indices;
      this.values = values;
    }

    static Sparse of(SparseFeatures features, Kernels kernels) {
      int n = features.rows();
      int[] ptr = features.indptr();
      int[] indptr = new int[n + 1];
      int[] indices = new int[Math.addExact(ptr[n], n)];
      double[] values = new double[indices.length];
      float[] v = features.values();
      int[] idx = features.indices();
      for (int i = 0, at = 0; i < n; i++) {
        indices[at] = 0;
        values[at++] = 1;
        for (int j = ptr[i]; j < ptr[i + 1]; j++, at++) {
          indices[at] = idx[j] + 1;
          values[at] = finite(v[j], i, idx[j]);
        }
        indptr[i + 1] = at;
      }
      return new Sparse(kernels, n, features.columns() + 1, indptr, indices, values);
    }

    @Override
    public boolean sparse() {
      return true;
    }

    @Override
    void multiply(
        int rowStart,
        int count,
        double alpha,
        double[] b,
        int bOff,
        int ldb,
        int cols,
        double[] out) {
      java.util.Arrays.fill(out, 0, count * cols, 0.0);
      for (int i = 0; i < count; i++) {
        int row = rowStart + i;
        for (int j = indptr[row]; j < indptr[row + 1]; j++) {
          kernels
              .vectorOps()
              .axpy(cols, alpha * values[j], b, bOff + indices[j] * ldb, out, i * cols);
        }
      }
    }

    @Override
    void multiplyTransposedAdd(
        int rowStart, int count, double alpha, double[] e, int cols, double[] out) {
      for (int i = 0; i < count; i++) {
        for (int j = indptr[rowStart + i]; j < indptr[rowStart + i + 1]; j++) {
          kernels.vectorOps().axpy(cols, alpha * values[j], e, i * cols, out, indices[j] * cols);
        }
      }
    }

    @Override
    void weightedGram(double[] weights, double[] scratch, double[] out) {
      java.util.Arrays.fill(out, 0, columns * columns, 0.0);
      for (int i = 0; i < rows; i++) {
        double w = weights == null ? 1 : weights[i];
        for (int a = indptr[i]; a < indptr[i + 1]; a++) {
          double wa = w * values[a];
          int row = indices[a] * columns;
          for (int b = indptr[i]; b <= a; b++) {
            out[row + indices[b]] += wa * values[b];
          }
        }
      }
    }

    @Override
    void transposedRows(int rowStart, int count, double[] out) {
      java.util.Arrays.fill(out, 0, columns * count, 0.0);
      for (int i = 0; i < count; i++) {
        int row = rowStart + i;
        for (int j = indptr[row]; j < indptr[row + 1]; j++) {
          out[indices[j] * count + i] = values[j];
        }
      }
    }

    @Override
    void squaredTimes(double[] v, double[] out) {
      for (int i = 0; i < rows; i++) {
        double s = 0;
        for (int j = indptr[i]; j < indptr[i + 1]; j++) {
          s += values[j] * values[j] * v[indices[j]];
        }
        out[i] = s;
      }
    }
  }
}
