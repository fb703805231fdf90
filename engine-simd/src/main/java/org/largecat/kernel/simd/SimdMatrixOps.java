package org.largecat.kernel.simd;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;
import org.largecat.kernel.scalar.ScalarMatrixOps;

/**
 * gemm and syrk on the Vector API, in the GotoBLAS / BLIS layout: op(B) is packed, in double, into
 * panels of {@value #KC} rows by {@link #NR} columns that stay in L1 (unless C has too few rows to
 * reuse them, when a double B is read in place), and one register-blocked kernel keeps a {@value
 * #MR} x {@link #NR} tile of C in 16 accumulators while it runs down the panel. A float gemm sums
 * in float ({@link FloatProduct}, twice the lanes) when its operands allow that within the float
 * bound; otherwise its operands are widened to double as they are packed and each sum rounded to
 * float once (longer sums than one panel of {@value #KC} go to the scalar reference, and float syrk
 * rounds once per panel). The Cholesky solve updates whole rows of right-hand sides with vector
 * fmas; gemv and the Cholesky factor (M x M, M the covariates) are the scalar reference's.
 *
 * <p>Why a Java gemm beside BLAS: OpenBLAS picks its kernels from the CPU it recognises, and
 * Debian's 0.3.21 runs CPUs newer than itself on older kernels (bin/openblas-env.sh), while this
 * kernel runs at the width the JVM finds. A double A is read in place, a row of four broadcast from
 * its strides; tiles that C does not fill (edges, the float storage, the diagonal of syrk) go
 * through a scratch tile.
 */
final class SimdMatrixOps extends ScalarMatrixOps {
  private static final VectorSpecies<Double> D = SimdWidth.DOUBLES;
  private static final int L = D.length();

  /** Rows of a tile of C. */
  private static final int MR = 4;

  /** Columns of a tile of C: four vectors, so that a tile is 16 accumulators. */
  private static final int NR = 4 * L;

  /** Rows of op(B) per packed panel: a KC x NR panel is 32 KB at 512 bits, within L1. */
  private static final int KC = 128;

  /** Columns of op(B) packed at a time (KC x NC doubles, 256 KB: L2). */
  private static final int NC = 256;

  /** Rows of C per pass over the packed columns, so that their rows of A stay in cache. */
  private static final int MC = 64;

  private static final ThreadLocal<Workspace> WORKSPACES = ThreadLocal.withInitial(Workspace::new);

  /** One thread's packed operands and scratch tile. */
  private static final class Workspace {
    final double[] b = new double[KC * NC]; // NC is a whole number of panels at every width
    final double[] a = new double[MC * KC];
    final double[] tile = new double[MR * NR];
  }

  @Override
  protected void gemmKernel(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      double alpha,
      double[] a,
      int aOff,
      int lda,
      double[] b,
      int bOff,
      int ldb,
      double beta,
      double[] c,
      int cOff,
      int ldc) {
    product(
        m,
        n,
        k,
        alpha,
        a,
        aOff,
        transA ? 1 : lda,
        transA ? lda : 1,
        b,
        bOff,
        transB ? 1 : ldb,
        transB ? ldb : 1,
        beta,
        c,
        cOff,
        ldc,
        false);
  }

  @Override
  protected void gemmKernel(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      float alpha,
      float[] a,
      int aOff,
      int lda,
      float[] b,
      int bOff,
      int ldb,
      float beta,
      float[] c,
      int cOff,
      int ldc) {
    int aRow = transA ? 1 : lda;
    int aCol = transA ? lda : 1;
    int bRow = transB ? 1 : ldb;
    int bCol = transB ? ldb : 1;
    if (m > 0
        && n > 0
        && k > 0
        && FloatProduct.fits(m, n, k, alpha, a, aOff, aRow, aCol, b, bOff, bRow, bCol)) {
      scale(c, cOff, ldc, m, n, beta, false);
      FloatProduct.addProduct(
          m, n, k, alpha, a, aOff, aRow, aCol, b, bOff, bRow, bCol, c, cOff, ldc);
      return;
    }
    if (k > KC) {
      // Sums rounded to float once per panel could overflow, or meet an infinity, on the way.
      super.gemmKernel(
          transA, transB, m, n, k, alpha, a, aOff, lda, b, bOff, ldb, beta, c, cOff, ldc);
      return;
    }
    product(m, n, k, alpha, a, aOff, aRow, aCol, b, bOff, bRow, bCol, beta, c, cOff, ldc, false);
  }

  @Override
  protected void syrkKernel(
      boolean trans,
      int n,
      int k,
      double alpha,
      double[] a,
      int aOff,
      int lda,
      double beta,
      double[] c,
      int cOff,
      int ldc) {
    // op(A) op(A)^T: the second factor is op(A) read with its strides swapped.
    int row = trans ? 1 : lda;
    int col = trans ? lda : 1;
    product(n, n, k, alpha, a, aOff, row, col, a, aOff, col, row, beta, c, cOff, ldc, true);
  }

  @Override
  protected void syrkKernel(
      boolean trans,
      int n,
      int k,
      float alpha,
      float[] a,
      int aOff,
      int lda,
      float beta,
      float[] c,
      int cOff,
      int ldc) {
    int row = trans ? 1 : lda;
    int col = trans ? lda : 1;
    product(n, n, k, alpha, a, aOff, row, col, a, aOff, col, row, beta, c, cOff, ldc, true);
  }

  /**
   * C = alpha A B + beta C, C m x n, with A(i, p) = a[aOff + i * aRow + p * aCol] and B(p, j) =
   * b[bOff + p * bRow + j * bCol]; a, b and c are double[] or float[]. With lower, only C's lower
   * triangle (j <= i) is read or written.
   */
  private static void product(
      int m,
      int n,
      int k,
      double alpha,
      Object a,
      int aOff,
      int aRow,
      int aCol,
      Object b,
      int bOff,
      int bRow,
      int bCol,
      double beta,
      Object c,
      int cOff,
      int ldc,
      boolean lower) {
    scale(c, cOff, ldc, m, n, beta, lower);
    Workspace w = WORKSPACES.get();
    double[] direct = a instanceof double[] d ? d : null;
    // With few rows of C, each packed panel would serve one or two tiles and packing would cost as
    // much as the product: a double B with unit column stride is then read in place, its whole
    // panels
    // at their row stride, and only a last partial panel is packed (with its zero columns).
    double[] directB = b instanceof double[] d && bCol == 1 && m <= 2 * MR ? d : null;
    for (int p0 = 0; p0 < k; p0 += KC) {
      int kc = Math.min(KC, k - p0);
      for (int j0 = 0; j0 < n; j0 += NC) {
        int nc = Math.min(NC, n - j0);
        if (directB == null) {
          packB(b, bOff + p0 * bRow + j0 * bCol, bRow, bCol, kc, nc, w.b);
        }
        for (int i0 = 0; i0 < m; i0 += MC) {
          int mc = Math.min(MC, m - i0);
          if (lower && j0 >= i0 + mc) {
            continue;
          }
          if (direct == null) {
            packA(a, aOff + i0 * aRow + p0 * aCol, aRow, aCol, mc, kc, w.a);
          }
          for (int jr = 0; jr < nc; jr += NR) {
            int j = j0 + jr;
            // This panel of B: packed (rows NR apart), or B itself (rows bRow apart).
            double[] bs = w.b;
            int bo = jr * kc;
            int bStep = NR;
            if (directB != null && nc - jr >= NR) {
              bs = directB;
              bo = bOff + p0 * bRow + j;
              bStep = bRow;
            } else if (directB != null) {
              packB(directB, bOff + p0 * bRow + j, bRow, 1, kc, nc - jr, w.b);
              bo = 0;
            }
            for (int ir = 0; ir < mc; ir += MR) {
              int i = i0 + ir;
              if (lower && j >= i + MR) {
                continue; // above the diagonal
              }
              int rows = Math.min(MR, m - i);
              int cols = Math.min(NR, n - j);
              // Rows of A: in place for a double A (a short last group packed with zero rows), else
              // packed.
              double[] as = w.a;
              int ao = ir * kc;
              int rs = kc;
              int cs = 1;
              if (direct != null && rows == MR) {
                as = direct;
                ao = aOff + i * aRow + p0 * aCol;
                rs = aRow;
                cs = aCol;
              } else if (direct != null) {
                packA(direct, aOff + i * aRow + p0 * aCol, aRow, aCol, rows, kc, w.a);
                ao = 0;
              }
              if (c instanceof double[] cd
                  && rows == MR
                  && cols == NR
                  && !(lower && j + NR > i + 1)) {
                kernel(kc, as, ao, rs, cs, bs, bo, bStep, alpha, cd, cOff + i * ldc + j, ldc);
              } else {
                java.util.Arrays.fill(w.tile, -0.0);
                kernel(kc, as, ao, rs, cs, bs, bo, bStep, 1, w.tile, 0, NR);
                add(
                    w.tile,
                    rows,
                    cols,
                    lower ? i - j : Integer.MAX_VALUE,
                    alpha,
                    c,
                    cOff + i * ldc + j,
                    ldc);
              }
            }
          }
        }
      }
    }
  }

  /**
   * C = beta C over the m x n matrix (its lower triangle with lower), so that the products only
   * add: beta 0 writes -0, which adding leaves every sum as it is, +0 and -0 included, and C is not
   * read. beta C rounds as in the reference's fma(alpha, sum, beta C).
   */
  private static void scale(Object c, int cOff, int ldc, int m, int n, double beta, boolean lower) {
    if (beta == 1) {
      return;
    }
    for (int i = 0; i < m; i++) {
      int at = cOff + i * ldc;
      int to = at + (lower ? Math.min(n, i + 1) : n);
      if (c instanceof double[] cd && beta == 0) {
        java.util.Arrays.fill(cd, at, to, -0.0);
      } else if (c instanceof double[] cd) {
        for (int j = at; j < to; j++) {
          cd[j] *= beta;
        }
      } else {
        float[] cf = (float[]) c;
        for (int j = at; j < to; j++) {
          cf[j] = beta == 0 ? -0f : (float) (beta * cf[j]);
        }
      }
    }
  }

  /**
   * The tile C[0 .. MR) x [0 .. NR) at c[cOff] (leading dimension ldc) += alpha A B over kc steps,
   * A(r, p) = a[aOff + r * rs + p * cs], B(p, q) = b[bOff + p * bStep + q] (a packed panel: bStep
   * NR).
   */
  private static void kernel(
      int kc,
      double[] a,
      int aOff,
      int rs,
      int cs,
      double[] b,
      int bOff,
      int bStep,
      double alpha,
      double[] c,
      int cOff,
      int ldc) {
    DoubleVector c00 = DoubleVector.zero(D);
    DoubleVector c01 = c00;
    DoubleVector c02 = c00;
    DoubleVector c03 = c00;
    DoubleVector c10 = c00;
    DoubleVector c11 = c00;
    DoubleVector c12 = c00;
    DoubleVector c13 = c00;
    DoubleVector c20 = c00;
    DoubleVector c21 = c00;
    DoubleVector c22 = c00;
    DoubleVector c23 = c00;
    DoubleVector c30 = c00;
    DoubleVector c31 = c00;
    DoubleVector c32 = c00;
    DoubleVector c33 = c00;
    for (int p = 0, ap = aOff, bp = bOff; p < kc; p++, ap += cs, bp += bStep) {
      DoubleVector b0 = DoubleVector.fromArray(D, b, bp);
      DoubleVector b1 = DoubleVector.fromArray(D, b, bp + L);
      DoubleVector b2 = DoubleVector.fromArray(D, b, bp + 2 * L);
      DoubleVector b3 = DoubleVector.fromArray(D, b, bp + 3 * L);
      DoubleVector a0 = DoubleVector.broadcast(D, a[ap]);
      c00 = b0.fma(a0, c00);
      c01 = b1.fma(a0, c01);
      c02 = b2.fma(a0, c02);
      c03 = b3.fma(a0, c03);
      DoubleVector a1 = DoubleVector.broadcast(D, a[ap + rs]);
      c10 = b0.fma(a1, c10);
      c11 = b1.fma(a1, c11);
      c12 = b2.fma(a1, c12);
      c13 = b3.fma(a1, c13);
      DoubleVector a2 = DoubleVector.broadcast(D, a[ap + 2 * rs]);
      c20 = b0.fma(a2, c20);
      c21 = b1.fma(a2, c21);
      c22 = b2.fma(a2, c22);
      c23 = b3.fma(a2, c23);
      DoubleVector a3 = DoubleVector.broadcast(D, a[ap + 3 * rs]);
      c30 = b0.fma(a3, c30);
      c31 = b1.fma(a3, c31);
      c32 = b2.fma(a3, c32);
      c33 = b3.fma(a3, c33);
    }
    // Written out: a helper taking vectors is not always inlined, and then every vector is boxed.
    DoubleVector va = DoubleVector.broadcast(D, alpha);
    c00.fma(va, DoubleVector.fromArray(D, c, cOff)).intoArray(c, cOff);
    c01.fma(va, DoubleVector.fromArray(D, c, cOff + L)).intoArray(c, cOff + L);
    c02.fma(va, DoubleVector.fromArray(D, c, cOff + 2 * L)).intoArray(c, cOff + 2 * L);
    c03.fma(va, DoubleVector.fromArray(D, c, cOff + 3 * L)).intoArray(c, cOff + 3 * L);
    cOff += ldc;
    c10.fma(va, DoubleVector.fromArray(D, c, cOff)).intoArray(c, cOff);
    c11.fma(va, DoubleVector.fromArray(D, c, cOff + L)).intoArray(c, cOff + L);
    c12.fma(va, DoubleVector.fromArray(D, c, cOff + 2 * L)).intoArray(c, cOff + 2 * L);
    c13.fma(va, DoubleVector.fromArray(D, c, cOff + 3 * L)).intoArray(c, cOff + 3 * L);
    cOff += ldc;
    c20.fma(va, DoubleVector.fromArray(D, c, cOff)).intoArray(c, cOff);
    c21.fma(va, DoubleVector.fromArray(D, c, cOff + L)).intoArray(c, cOff + L);
    c22.fma(va, DoubleVector.fromArray(D, c, cOff + 2 * L)).intoArray(c, cOff + 2 * L);
    c23.fma(va, DoubleVector.fromArray(D, c, cOff + 3 * L)).intoArray(c, cOff + 3 * L);
    cOff += ldc;
    c30.fma(va, DoubleVector.fromArray(D, c, cOff)).intoArray(c, cOff);
    c31.fma(va, DoubleVector.fromArray(D, c, cOff + L)).intoArray(c, cOff + L);
    c32.fma(va, DoubleVector.fromArray(D, c, cOff + 2 * L)).intoArray(c, cOff + 2 * L);
    c33.fma(va, DoubleVector.fromArray(D, c, cOff + 3 * L)).intoArray(c, cOff + 3 * L);
  }

  /**
   * C[r][q] = fma(alpha, tile[r][q], C[r][q]) for the tile's first rows x cols, only where q <= r +
   * diagonal (syrk's lower triangle); c is double[] or float[].
   */
  private static void add(
      double[] tile, int rows, int cols, int diagonal, double alpha, Object c, int cOff, int ldc) {
    for (int r = 0; r < rows; r++) {
      int last = (int) Math.min(cols, (long) r + diagonal + 1);
      int at = cOff + r * ldc;
      if (c instanceof double[] cd) {
        for (int q = 0; q < last; q++) {
          cd[at + q] = Math.fma(alpha, tile[r * NR + q], cd[at + q]);
        }
      } else {
        float[] cf = (float[]) c;
        for (int q = 0; q < last; q++) {
          cf[at + q] = (float) Math.fma(alpha, tile[r * NR + q], cf[at + q]);
        }
      }
    }
  }

  /**
   * Packs rows [0, kc) by columns [0, nc) of B (element (p, j) at b[off + p * row + j * col]) as
   * panels of NR columns, each kc x NR row-major, the last padded with zero columns.
   */
  private static void packB(Object b, int off, int row, int col, int kc, int nc, double[] out) {
    for (int j0 = 0; j0 < nc; j0 += NR) {
      int width = Math.min(NR, nc - j0);
      int panel = j0 * kc;
      for (int p = 0; p < kc; p++) {
        int to = panel + p * NR;
        int from = off + p * row + j0 * col;
        if (b instanceof double[] bd && col == 1) {
          System.arraycopy(bd, from, out, to, width);
        } else if (b instanceof double[] bd) {
          for (int q = 0; q < width; q++) {
            out[to + q] = bd[from + q * col];
          }
        } else {
          float[] bf = (float[]) b;
          for (int q = 0; q < width; q++) {
            out[to + q] = bf[from + q * col];
          }
        }
        java.util.Arrays.fill(out, to + width, to + NR, 0.0);
      }
    }
  }

  /**
   * Packs rows [0, rows) by columns [0, kc) of A (element (i, p) at a[off + i * row + p * col]) as
   * kc-long rows, padding the last group of MR with zero rows.
   */
  private static void packA(Object a, int off, int row, int col, int rows, int kc, double[] out) {
    for (int i = 0; i < rows; i++) {
      int to = i * kc;
      int from = off + i * row;
      if (a instanceof double[] ad) {
        for (int p = 0; p < kc; p++) {
          out[to + p] = ad[from + p * col];
        }
      } else {
        float[] af = (float[]) a;
        for (int p = 0; p < kc; p++) {
          out[to + p] = af[from + p * col];
        }
      }
    }
    int padded = -Math.floorDiv(-rows, MR) * MR;
    java.util.Arrays.fill(out, rows * kc, padded * kc, 0.0);
  }

  @Override
  protected void choleskySolveKernel(
      int n, int nrhs, double[] l, int lOff, int ldl, double[] b, int bOff, int ldb) {
    // The reference's substitutions, each row of B finished in registers a vector of columns at a
    // time:
    // the same fmas in the same order, so the same result, with row i of B loaded and stored once.
    for (int i = 0; i < n; i++) {
      substitute(i, 0, i, l, lOff + i * ldl, 1, l[lOff + i * ldl + i], nrhs, b, bOff, ldb);
    }
    for (int i = n - 1; i >= 0; i--) {
      substitute(
          i, i + 1, n, l, lOff + (i + 1) * ldl + i, ldl, l[lOff + i * ldl + i], nrhs, b, bOff, ldb);
    }
  }

  /** Row i of B = (row i - sum over p in [from, to) of l[lAt + (p - from) * lStep] row p) / lii. */
  private static void substitute(
      int i,
      int from,
      int to,
      double[] l,
      int lAt,
      int lStep,
      double lii,
      int nrhs,
      double[] b,
      int bOff,
      int ldb) {
    int rowB = bOff + i * ldb;
    int r = 0;
    for (; r <= nrhs - L; r += L) {
      DoubleVector v = DoubleVector.fromArray(D, b, rowB + r);
      for (int p = from, at = lAt; p < to; p++, at += lStep) {
        v =
            DoubleVector.fromArray(D, b, bOff + p * ldb + r)
                .fma(DoubleVector.broadcast(D, -l[at]), v);
      }
      v.div(lii).intoArray(b, rowB + r);
    }
    for (; r < nrhs; r++) {
      double v = b[rowB + r];
      for (int p = from, at = lAt; p < to; p++, at += lStep) {
        v = Math.fma(-l[at], b[bOff + p * ldb + r], v);
      }
      b[rowB + r] = v / lii;
    }
  }
}
