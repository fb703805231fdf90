package org.largecat.train.sampled;

import java.util.Arrays;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.VectorOps;
import org.largecat.model.FactorizedModel;

/**
 * The input embedding rows a factorized mini-batch touches, for both factorized trainers: in phase
 * one each batch position's h_i = Σ_j x_nj v_j and x_n's nonzeros; between the phases the (feature,
 * position) pairs bucketed by feature; in phase two each touched row's gradient Σ_n x_nj ∂L/∂h_n by
 * a gather-axpy, applied with the row's step, a block of rows at a time.
 */
final class BatchInputRows {
  private final Features x;
  private final FactorizedModel model;
  private final VectorOps ops;
  private final RowUpdate rowUpdate;
  private final int rank;

  /** Per batch position i: x_n's nonzero columns and values at [i·maxRow, i·maxRow + nnz). */
  private final int maxRow;

  private final int[] columns;
  private final float[] values;
  private final int[] nonzeros;
  private final FactorizedTrainer.Buckets buckets;

  /** ∂L/∂h per batch position (|B| × r), filled by the trainer in phase one. */
  private final float[] embeddingGradients;

  private final int batch;
  private final float[] squares;
  private final int[] last;

  BatchInputRows(
      Features x,
      FactorizedModel model,
      VectorOps ops,
      RowUpdate rowUpdate,
      int batch,
      float[] embeddingGradients) {
    this.x = x;
    this.model = model;
    this.ops = ops;
    this.rowUpdate = rowUpdate;
    this.rank = model.rank();
    this.batch = batch;
    this.embeddingGradients = embeddingGradients;
    maxRow = maxRowLength(x);
    columns = new int[Math.multiplyExact(batch, maxRow)];
    values = new float[columns.length];
    nonzeros = new int[batch];
    buckets = new FactorizedTrainer.Buckets(x.columns(), columns.length);
    squares = rowUpdate.adaptive() ? new float[model.inputs().length] : null;
    last = new int[x.columns()];
  }

  /** The most values any row of x stores. */
  static int maxRowLength(Features x) {
    if (!(x instanceof SparseFeatures s)) {
      return x.columns();
    }
    int most = 0;
    for (int n = 0; n < s.rows(); n++) {
      most = Math.max(most, s.rowLength(n));
    }
    return most;
  }

  /** Phase one: h of example n into embeddings at i·r, and its nonzeros kept for phase two. */
  void embed(int n, int i, float[] embeddings) {
    Arrays.fill(embeddings, i * rank, (i + 1) * rank, 0f);
    x.embed(ops, model.inputs(), rank, n, embeddings, i * rank);
    nonzeros[i] = x.nonzeros(n, columns, values, i * maxRow);
  }

  /** Between the phases: the pairs of the first {@code size} positions bucketed by feature. */
  void bucket(int size) {
    buckets.clear();
    for (int i = 0; i < size; i++) {
      for (int e = i * maxRow, end = e + nonzeros[i]; e < end; e++) {
        buckets.add(columns[e], i, values[e]);
      }
    }
    buckets.sort();
  }

  /** The number of input rows the batch touched. */
  int touched() {
    return buckets.touchedCount;
  }

  /**
   * Phase two for touched rows [from, to) at {@code iteration}, {@link RowUpdate#BLOCK} at a time:
   * each block's gradients summed into {@code gradient} and their step weights set in {@code fresh}
   * and {@code keep} (the caller's thread's own, BLOCK·r and BLOCK long), then the block stepped in
   * one call.
   */
  void update(int from, int to, int iteration, float[] gradient, float[] fresh, float[] keep) {
    for (int block = from; block < to; block += RowUpdate.BLOCK) {
      int count = Math.min(RowUpdate.BLOCK, to - block);
      for (int q = 0; q < count; q++) {
        int t = block + q;
        ops.gatherAxpy(
            embeddingGradients,
            batch,
            rank,
            buckets.source,
            buckets.start[t],
            buckets.start[t + 1] - buckets.start[t],
            buckets.weight,
            buckets.start[t],
            gradient,
            q * rank);
        int j = buckets.touched[t];
        rowUpdate.weigh(last[j], fresh, keep, q);
        last[j] = iteration;
      }
      rowUpdate.step(
          ops,
          model.inputs(),
          squares,
          rank,
          buckets.touched,
          block,
          count,
          gradient,
          0,
          fresh,
          keep);
    }
  }
}
