package org.largecat.kernel.simd;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The float gemm C += alpha op(A) op(B) that sums in float, for operands on which that stays within
 * the float bound of {@link org.largecat.kernel.Agreement} ((k + 2) float units of Σ |a b|): op(B)
 * packed into panels of {@value #KC} rows by {@link #NR} columns, op(A) broadcast from its own
 * strides, a {@value #MR} x {@link #NR} tile of C in 12 float accumulators (with the 3 rows of B
 * and a broadcast, 16 registers: no spill at 256 bits).
 *
 * <p>Float sums meet that bound only when nothing overflows and every nonzero product is a normal
 * float (a subnormal one loses relative precision the bound has no room for). {@link #fits} checks
 * both from the largest and the smallest nonzero magnitude of each operand; the caller takes
 * another path when it says no (NaN or ±Inf in an operand included).
 */
final class FloatProduct {
  private static final VectorSpecies<Float> F = SimdWidth.FLOATS;
  private static final int L = F.length();

  /** Rows of a tile of C. */
  private static final int MR = 4;

  /** Columns of a tile of C: three vectors. */
  private static final int NR = 3 * L;

  /** Rows of op(B) per packed panel (KC x NR floats: 24 KB at 256 bits, within L1). */
  private static final int KC = 256;

  /** Columns of op(B) packed at a time (a whole number of panels at 128, 256 and 512 bits). */
  private static final int NC = 480;

  private static final ThreadLocal<Workspace> WORKSPACES = ThreadLocal.withInitial(Workspace::new);

  /** One thread's packed operands, scratch tile and the magnitudes {@link #fits} found. */
  private static final class Workspace {
    final float[] b = new float[KC * NC];
    final float[] a = new float[MR * KC];
    final float[] tile = new float[MR * NR];
    double largest;
    double smallest;
  }

  private FloatProduct() {}

  /**
   * Whether float sums of alpha op(A) op(B) (k terms, A(i, p) = a[aOff + i * aRow + p * aCol], B(p,
   * j) = b[bOff + p * bRow + j * bCol]) stay within the float bound: alpha and every element
   * finite, k max|a| max|b| at most half the largest float, and the smallest nonzero |a| |b| (times
   * |alpha|) a normal float.
   */
  static boolean fits(
      int m,
      int n,
      int k,
      float alpha,
      float[] a,
      int aOff,
      int aRow,
      int aCol,
      float[] b,
      int bOff,
      int bRow,
      int bCol) {
    if (!Float.isFinite(alpha)) {
      return false;
    }
    Workspace w = WORKSPACES.get();
    magnitudes(a, aOff, aRow, aCol, m, k, w);
    double largestA = w.largest;
    double smallestA = w.smallest;
    magnitudes(b, bOff, bRow, bCol, k, n, w);
    double largest = largestA * w.largest;
    double smallest = smallestA * w.smallest;
    if (!(k * largest <= Float.MAX_VALUE / 2.0)) {
      return false; // NaN and infinities fail here too
    }
    return smallest == Double.POSITIVE_INFINITY // an operand with no nonzero element
        || (smallest >= Float.MIN_NORMAL
            && (alpha == 0 || Math.abs(alpha) * smallest >= Float.MIN_NORMAL));
  }

  /**
   * The largest |x| (NaN when an element is NaN) and the smallest nonzero |x| (+Inf when all are 0)
   * of the rows x cols matrix with x(i, j) = x[off + i * row + j * col], into w; whichever stride
   * is 1 runs in vectors.
   */
  private static void magnitudes(
      float[] x, int off, int row, int col, int rows, int cols, Workspace w) {
    if (row == 1 && col != 1) {
      magnitudes(x, off, col, row, cols, rows, w);
      return;
    }
    FloatVector largest = FloatVector.zero(F);
    FloatVector smallest = FloatVector.broadcast(F, Float.POSITIVE_INFINITY);
    float largestTail = 0;
    float smallestTail = Float.POSITIVE_INFINITY;
    for (int i = 0; i < rows; i++) {
      int at = off + i * row;
      int j = 0;
      if (col == 1) {
        for (; j <= cols - L; j += L) {
          FloatVector v = FloatVector.fromArray(F, x, at + j).abs();
          largest = largest.max(v);
          smallest =
              smallest.min(v.blend(Float.POSITIVE_INFINITY, v.compare(VectorOperators.EQ, 0f)));
        }
      }
      for (; j < cols; j++) {
        float v = Math.abs(x[at + j * col]);
        largestTail = Math.max(largestTail, v);
        smallestTail = v == 0 ? smallestTail : Math.min(smallestTail, v);
      }
    }
    w.largest = Math.max(largestTail, largest.reduceLanes(VectorOperators.MAX));
    w.smallest = Math.min(smallestTail, smallest.reduceLanes(VectorOperators.MIN));
  }

  /**
   * C += alpha A B, C m x n at c[cOff] with leading dimension ldc, the operands as in {@link
   * #fits}; each element of C gets its k-term float sum times alpha added in one rounding per
   * panel.
   */
  static void addProduct(
      int m,
      int n,
      int k,
      float alpha,
      float[] a,
      int aOff,
      int aRow,
      int aCol,
      float[] b,
      int bOff,
      int bRow,
      int bCol,
      float[] c,
      int cOff,
      int ldc) {
    Workspace w = WORKSPACES.get();
    int fullRows = m - m % MR;
    for (int p0 = 0; p0 < k; p0 += KC) {
      int kc = Math.min(KC, k - p0);
      if (fullRows < m) {
        packA(a, aOff + fullRows * aRow + p0 * aCol, aRow, aCol, m - fullRows, kc, w.a);
      }
      for (int j0 = 0; j0 < n; j0 += NC) {
        int nc = Math.min(NC, n - j0);
        packB(b, bOff + p0 * bRow + j0 * bCol, bRow, bCol, kc, nc, w.b);
        for (int jr = 0; jr < nc; jr += NR) {
          int j = j0 + jr;
          int cols = Math.min(NR, nc - jr);
          int bo = jr * kc;
          for (int i = 0; i < m; i += MR) {
            int rows = Math.min(MR, m - i);
            // A in place, its last short group of rows from the packed copy (zero rows below).
            float[] as = rows == MR ? a : w.a;
            int ao = rows == MR ? aOff + i * aRow + p0 * aCol : 0;
            int rs = rows == MR ? aRow : kc;
            int cs = rows == MR ? aCol : 1;
            if (rows == MR && cols == NR) {
              kernel(kc, as, ao, rs, cs, w.b, bo, alpha, c, cOff + i * ldc + j, ldc);
            } else {
              Arrays.fill(w.tile, 0f);
              kernel(kc, as, ao, rs, cs, w.b, bo, 1f, w.tile, 0, NR);
              for (int r = 0; r < rows; r++) {
                int at = cOff + (i + r) * ldc + j;
                for (int q = 0; q < cols; q++) {
                  c[at + q] = Math.fma(alpha, w.tile[r * NR + q], c[at + q]);
                }
              }
            }
          }
        }
      }
    }
  }

  /**
   * The tile C[0 .. MR) x [0 .. NR) at c[cOff] (leading dimension ldc) = fma(alpha, sum, C) over kc
   * steps, A(r, p) = a[aOff + r * rs + p * cs], B(p, q) = b[bOff + p * NR + q] (a packed panel).
   */
  private static void kernel(
      int kc,
      float[] a,
      int aOff,
      int rs,
      int cs,
      float[] b,
      int bOff,
      float alpha,
      float[] c,
      int cOff,
      int ldc) {
    FloatVector c00 = FloatVector.zero(F);
    FloatVector c01 = c00;
    FloatVector c02 = c00;
    FloatVector c10 = c00;
    FloatVector c11 = c00;
    FloatVector c12 = c00;
    FloatVector c20 = c00;
    FloatVector c21 = c00;
    FloatVector c22 = c00;
    FloatVector c30 = c00;
    FloatVector c31 = c00;
    FloatVector c32 = c00;
    int r1 = aOff + rs;
    int r2 = aOff + 2 * rs;
    int r3 = aOff + 3 * rs;
    for (int p = 0, ap = 0, bp = bOff; p < kc; p++, ap += cs, bp += NR) {
      FloatVector b0 = FloatVector.fromArray(F, b, bp);
      FloatVector b1 = FloatVector.fromArray(F, b, bp + L);
      FloatVector b2 = FloatVector.fromArray(F, b, bp + 2 * L);
      FloatVector a0 = FloatVector.broadcast(F, a[aOff + ap]);
      c00 = b0.fma(a0, c00);
      c01 = b1.fma(a0, c01);
      c02 = b2.fma(a0, c02);
      FloatVector a1 = FloatVector.broadcast(F, a[r1 + ap]);
      c10 = b0.fma(a1, c10);
      c11 = b1.fma(a1, c11);
      c12 = b2.fma(a1, c12);
      FloatVector a2 = FloatVector.broadcast(F, a[r2 + ap]);
      c20 = b0.fma(a2, c20);
      c21 = b1.fma(a2, c21);
      c22 = b2.fma(a2, c22);
      FloatVector a3 = FloatVector.broadcast(F, a[r3 + ap]);
      c30 = b0.fma(a3, c30);
      c31 = b1.fma(a3, c31);
      c32 = b2.fma(a3, c32);
    }
    // Written out: a helper taking vectors is not always inlined, and then every vector is boxed.
    FloatVector va = FloatVector.broadcast(F, alpha);
    c00.fma(va, FloatVector.fromArray(F, c, cOff)).intoArray(c, cOff);
    c01.fma(va, FloatVector.fromArray(F, c, cOff + L)).intoArray(c, cOff + L);
    c02.fma(va, FloatVector.fromArray(F, c, cOff + 2 * L)).intoArray(c, cOff + 2 * L);
    cOff += ldc;
    c10.fma(va, FloatVector.fromArray(F, c, cOff)).intoArray(c, cOff);
    c11.fma(va, FloatVector.fromArray(F, c, cOff + L)).intoArray(c, cOff + L);
    c12.fma(va, FloatVector.fromArray(F, c, cOff + 2 * L)).intoArray(c, cOff + 2 * L);
    cOff += ldc;
    c20.fma(va, FloatVector.fromArray(F, c, cOff)).intoArray(c, cOff);
    c21.fma(va, FloatVector.fromArray(F, c, cOff + L)).intoArray(c, cOff + L);
    c22.fma(va, FloatVector.fromArray(F, c, cOff + 2 * L)).intoArray(c, cOff + 2 * L);
    cOff += ldc;
    c30.fma(va, FloatVector.fromArray(F, c, cOff)).intoArray(c, cOff);
    c31.fma(va, FloatVector.fromArray(F, c, cOff + L)).intoArray(c, cOff + L);
    c32.fma(va, FloatVector.fromArray(F, c, cOff + 2 * L)).intoArray(c, cOff + 2 * L);
  }

  /**
   * Packs rows [0, kc) by columns [0, nc) of B (element (p, j) at b[off + p * row + j * col]) as
   * panels of NR columns, each kc x NR row-major, the last padded with zero columns. A transposed B
   * (row 1) is read along its stored rows.
   */
  private static void packB(float[] b, int off, int row, int col, int kc, int nc, float[] out) {
    for (int j0 = 0; j0 < nc; j0 += NR) {
      int width = Math.min(NR, nc - j0);
      int panel = j0 * kc;
      if (row == 1) {
        for (int q = 0; q < width; q++) {
          int from = off + (j0 + q) * col;
          for (int p = 0, to = panel + q; p < kc; p++, to += NR) {
            out[to] = b[from + p];
          }
        }
      } else {
        for (int p = 0; p < kc; p++) {
          int from = off + p * row + j0 * col;
          int to = panel + p * NR;
          if (col == 1) {
            System.arraycopy(b, from, out, to, width);
          } else {
            for (int q = 0; q < width; q++) {
              out[to + q] = b[from + q * col];
            }
          }
        }
      }
      if (width < NR) {
        for (int p = 0; p < kc; p++) {
          Arrays.fill(out, panel + p * NR + width, panel + (p + 1) * NR, 0f);
        }
      }
    }
  }

  /**
   * Packs rows [0, rows) by columns [0, kc) of A (element (i, p) at a[off + i * row + p * col]) as
   * kc-long rows, then zero rows up to MR.
   */
  private static void packA(float[] a, int off, int row, int col, int rows, int kc, float[] out) {
    for (int i = 0; i < rows; i++) {
      for (int p = 0; p < kc; p++) {
        out[i * kc + p] = a[off + i * row + p * col];
      }
    }
    Arrays.fill(out, rows * kc, MR * kc, 0f);
  }
}
