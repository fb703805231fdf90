package org.largecat.data;

import java.util.Objects;
import org.largecat.kernel.VectorOps;

/** Dense feature rows: N x D, row-major in one float array. */
public record DenseFeatures(int rows, int columns, float[] values) implements Features {

  public DenseFeatures {
    Objects.requireNonNull(values, "values");
    if (rows < 0 || columns < 0) {
      throw new IllegalArgumentException(
          "rows = " + rows + " and columns = " + columns + " must be >= 0");
    }
    if ((long) rows * columns != values.length) {
      throw new IllegalArgumentException(
          "values has "
              + values.length
              + " elements, rows x columns = "
              + rows
              + " x "
              + columns
              + " needs "
              + (long) rows * columns);
    }
  }

  @Override
  public long storedValues() {
    return values.length;
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
      java.util.Arrays.fill(out, outOff, outOff + count, 0.0);
    } else {
      ops.gatherDot(w, k, columns, classes, off, count, values, row * columns, out, outOff);
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
      ops.scatterAxpy(w, k, columns, classes, off, count, coef, coefOff, values, row * columns);
    }
  }

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
    if (columns > 0) {
      ops.gatherAxpy(values, this.rows, columns, rows, rowsOff, count, coef, coefOff, y, yOff);
    }
  }

  @Override
  public void embed(VectorOps ops, float[] table, int width, int row, float[] h, int hOff) {
    for (int j = 0, at = row * columns; j < columns; j++) {
      if (values[at + j] != 0) {
        ops.axpy(width, values[at + j], table, j * width, h, hOff);
      }
    }
  }

  @Override
  public int nonzeros(int row, int[] columns, float[] values, int off) {
    int count = 0;
    for (int j = 0, at = row * this.columns; j < this.columns; j++) {
      if (this.values[at + j] != 0) {
        columns[off + count] = j;
        values[off + count++] = this.values[at + j];
      }
    }
    return count;
  }

  @Override
  public double squaredNorm(int row) {
    double sum = 0;
    for (int j = row * columns, end = j + columns; j < end; j++) {
      sum += (double) values[j] * values[j];
    }
    return sum;
  }

  @Override
  public float get(int row, int column) {
    Objects.checkIndex(row, rows);
    Objects.checkIndex(column, columns);
    return values[row * columns + column];
  }

  @Override
  public DenseFeatures subset(int[] rowIndices) {
    float[] picked = new float[Math.multiplyExact(rowIndices.length, columns)];
    for (int i = 0; i < rowIndices.length; i++) {
      System.arraycopy(
          values, Objects.checkIndex(rowIndices[i], rows) * columns, picked, i * columns, columns);
    }
    return new DenseFeatures(rowIndices.length, columns, picked);
  }

  @Override
  public DenseFeatures scaleColumns(float[] factors) {
    checkFactors(factors, columns);
    float[] scaled = values.clone();
    for (int i = 0; i < scaled.length; i++) {
      float f = factors[i % columns];
      if (f != 0) {
        scaled[i] /= f;
      }
    }
    return new DenseFeatures(rows, columns, scaled);
  }

  @Override
  public float[] columnMaxAbs() {
    float[] max = new float[columns];
    for (int i = 0; i < values.length; i++) {
      max[i % columns] = Math.max(max[i % columns], Math.abs(values[i]));
    }
    return max;
  }

  static void checkFactors(float[] factors, int columns) {
    if (factors.length != columns) {
      throw new IllegalArgumentException(
          "factors has " + factors.length + " elements, expected one per column (" + columns + ")");
    }
  }
}
