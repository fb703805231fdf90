package org.largecat.data;

import java.util.Arrays;
import java.util.Objects;
import org.largecat.kernel.VectorOps;

/**
 * CSR-sparse feature rows: row n holds the pairs (indices[j], values[j]) for j in [indptr[n],
 * indptr[n+1]), column indices strictly increasing within a row.
 */
public record SparseFeatures(int rows, int columns, int[] indptr, int[] indices, float[] values)
    implements Features {

  public SparseFeatures {
    Objects.requireNonNull(indptr, "indptr");
    Objects.requireNonNull(indices, "indices");
    Objects.requireNonNull(values, "values");
    if (rows < 0 || columns < 0) {
      throw new IllegalArgumentException(
          "rows = " + rows + " and columns = " + columns + " must be >= 0");
    }
    if (indptr.length != rows + 1
        || indptr[0] != 0
        || indptr[rows] != indices.length
        || values.length != indices.length) {
      throw new IllegalArgumentException(
          "CSR arrays disagree: indptr has "
              + indptr.length
              + " entries for "
              + rows
              + " rows, ends at "
              + indptr[indptr.length - 1]
              + ", indices "
              + indices.length
              + ", values "
              + values.length);
    }
    for (int n = 0; n < rows; n++) {
      if (indptr[n + 1] < indptr[n]) {
        throw new IllegalArgumentException("indptr decreases at row " + n);
      }
      for (int j = indptr[n]; j < indptr[n + 1]; j++) {
        if (indices[j] < 0
            || indices[j] >= columns
            || (j > indptr[n] && indices[j] <= indices[j - 1])) {
          throw new IllegalArgumentException(
              "row "
                  + n
                  + ": column index "
                  + indices[j]
                  + " is outside [0, "
                  + columns
                  + ") or not strictly increasing");
        }
      }
    }
  }

  @Override
  public long storedValues() {
    return values.length;
  }

  /** Number of stored values in one row. */
  public int rowLength(int row) {
    return indptr[row + 1] - indptr[row];
  }

  @Override
  public void gatherDot(
      VectorOps ops,
      float[] w,
      int k,
      int row,
      int[] classes,
      int off,
      int count,
      double[] out,
      int outOff) {
    if (columns == 0) {
      Arrays.fill(out, outOff, outOff + count, 0.0);
    } else {
      ops.gatherDotSparse(
          w,
          k,
          columns,
          classes,
          off,
          count,
          indices,
          values,
          indptr[row],
          rowLength(row),
          out,
          outOff);
    }
  }

  @Override
  public void scatterAxpy(
      VectorOps ops,
      float[] w,
      int k,
      int row,
      int[] classes,
      int off,
      int count,
      float[] coef,
      int coefOff) {
    if (columns > 0) {
      ops.scatterAxpySparse(
          w,
          k,
          columns,
          classes,
          off,
          count,
          coef,
          coefOff,
          indices,
          values,
          indptr[row],
          rowLength(row));
    }
  }

  /**
   * A plain scatter: like the sparse scatter-axpy kernel it is bound by its scattered loads and
   * stores.
   */
  @Override
  public void gatherAxpy(
      VectorOps ops,
      int[] rows,
      int rowsOff,
      int count,
      float[] coef,
      int coefOff,
      float[] y,
      int yOff) {
    Objects.checkFromIndexSize(yOff, columns, y.length);
    for (int i = 0; i < count; i++) {
      int row = Objects.checkIndex(rows[rowsOff + i], this.rows);
      float c = coef[coefOff + i];
      for (int j = indptr[row]; j < indptr[row + 1]; j++) {
        y[yOff + indices[j]] = Math.fma(c, values[j], y[yOff + indices[j]]);
      }
    }
  }

  @Override
  public void embed(VectorOps ops, float[] table, int width, int row, float[] h, int hOff) {
    int from = indptr[row];
    if (rowLength(row) > 0) {
      ops.gatherAxpy(table, columns, width, indices, from, rowLength(row), values, from, h, hOff);
    }
  }

  @Override
  public int nonzeros(int row, int[] columns, float[] values, int off) {
    int from = indptr[row];
    int count = rowLength(row);
    System.arraycopy(indices, from, columns, off, count);
    System.arraycopy(this.values, from, values, off, count);
    return count;
  }

  @Override
  public double squaredNorm(int row) {
    double sum = 0;
    for (int j = indptr[row]; j < indptr[row + 1]; j++) {
      sum += (double) values[j] * values[j];
    }
    return sum;
  }

  @Override
  public float get(int row, int column) {
    Objects.checkIndex(row, rows);
    Objects.checkIndex(column, columns);
    int at = Arrays.binarySearch(indices, indptr[row], indptr[row + 1], column);
    return at >= 0 ? values[at] : 0f;
  }

  @Override
  public SparseFeatures subset(int[] rowIndices) {
    int[] ptr = new int[rowIndices.length + 1];
    for (int i = 0; i < rowIndices.length; i++) {
      ptr[i + 1] = Math.addExact(ptr[i], rowLength(Objects.checkIndex(rowIndices[i], rows)));
    }
    int[] idx = new int[ptr[rowIndices.length]];
    float[] val = new float[idx.length];
    for (int i = 0; i < rowIndices.length; i++) {
      int from = indptr[rowIndices[i]];
      System.arraycopy(indices, from, idx, ptr[i], ptr[i + 1] - ptr[i]);
      System.arraycopy(values, from, val, ptr[i], ptr[i + 1] - ptr[i]);
    }
    return new SparseFeatures(rowIndices.length, columns, ptr, idx, val);
  }

  @Override
  public SparseFeatures scaleColumns(float[] factors) {
    DenseFeatures.checkFactors(factors, columns);
    float[] scaled = values.clone();
    for (int j = 0; j < scaled.length; j++) {
      float f = factors[indices[j]];
      if (f != 0) {
        scaled[j] /= f;
      }
    }
    return new SparseFeatures(rows, columns, indptr, indices, scaled);
  }

  @Override
  public float[] columnMaxAbs() {
    float[] max = new float[columns];
    for (int j = 0; j < values.length; j++) {
      max[indices[j]] = Math.max(max[indices[j]], Math.abs(values[j]));
    }
    return max;
  }

  /** Returns the same rows stored densely. */
  public DenseFeatures toDense() {
    float[] dense = new float[Math.multiplyExact(rows, columns)];
    for (int n = 0; n < rows; n++) {
      for (int j = indptr[n]; j < indptr[n + 1]; j++) {
        dense[n * columns + indices[j]] = values[j];
      }
    }
    return new DenseFeatures(rows, columns, dense);
  }
}
