package org.largecat.train.sampled;

import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.SampledSpec;

/**
 * The {@link SampledTrainer}'s step through the batch's (example, class) slots: the label and |S|
 * sampled classes of each example, each with the bound's coefficient from phase one (which the
 * subclasses do). The slots are then bucketed by class. Phase two, split across threads by touched
 * class: a class's gradient row is summed in a D-long buffer by one gather-axpy of its slots' x_n,
 * and applied at once, for the whole row or, when x is sparse and D large, for every touched (row,
 * feature) pair. Summing by class keeps the gradient out of a K x D buffer: each weight row and its
 * s are read and written once an iteration, and x_n comes from the cache. Every gradient is summed
 * in a fixed order (a class's label slots, then its sampled ones, each in batch order).
 */
abstract class LinearSlotStep implements MiniBatchLoop.Mode {
  final Dataset data;
  final LinearModel model;
  final SampledSpec options;
  final Kernels kernels;
  final MiniBatchLoop loop;
  final LinearRows rows;
  final int classes;
  final int columns;
  final int sampled;
  final int slots;
  private final SparseFeatures sparse;

  /** Each slot's class and coefficient, example by example, the label's slot first. */
  final int[] batchRows;

  final float[] batchCoef;

  /**
   * The slots bucketed by class: the entries [touchedStart[t], touchedStart[t + 1]) are class
   * touched[t]'s, each with its coefficient and its example, or what {@link #sampledSlotSource}
   * puts there.
   */
  private final int[] slotCount;

  private final int[] touched;
  private int touchedCount;
  final int[] touchedStart;
  final int[] bucketExample;
  final float[] bucketCoef;

  /** Sparse x, large D: each (row, feature) pair's last update. */
  private final int[] coordinateLast;

  LinearSlotStep(
      Dataset data,
      LinearModel model,
      SampledSpec options,
      Kernels kernels,
      MiniBatchLoop loop,
      LinearRows rows,
      int sampled) {
    this.data = data;
    this.model = model;
    this.options = options;
    this.kernels = kernels;
    this.loop = loop;
    this.rows = rows;
    this.classes = data.classes();
    this.columns = data.columns();
    this.sampled = sampled;
    this.slots = sampled + 1;
    this.sparse = data.features() instanceof SparseFeatures s ? s : null;
    batchRows = new int[Math.multiplyExact(loop.batches.examples.length, slots)];
    batchCoef = new float[batchRows.length];
    slotCount = new int[classes];
    touched = new int[batchRows.length];
    touchedStart = new int[batchRows.length + 1];
    bucketExample = new int[batchRows.length];
    bucketCoef = new float[batchRows.length];
    coordinateLast =
        updatesByCoordinate(data, options, sampled)
            ? new int[Math.multiplyExact(classes, columns)]
            : null;
  }

  /** What the bucket of sampled slot j of batch position b holds in place of its example. */
  abstract int sampledSlotSource(int b, int j);

  /** A counting sort of the batch's slots by class, classes in order of first appearance. */
  @Override
  public void betweenPhases() {
    int size = loop.batches.size;
    int end = size * slots;
    touchedCount = 0;
    for (int i = 0; i < end; i++) {
      int k = batchRows[i];
      touched[touchedCount] =
          k; // kept when k is new: without a branch, which would be mispredicted often
      touchedCount += slotCount[k]++ == 0 ? 1 : 0;
    }
    int start = 0;
    for (int t = 0; t < touchedCount; t++) {
      int k = touched[t];
      touchedStart[t] = start;
      start += slotCount[k];
      slotCount[k] = touchedStart[t];
    }
    touchedStart[touchedCount] = start;
    // The label slots first, so that a class's examples come before what its sampled slots hold.
    int[] batchExamples = loop.batches.examples;
    for (int b = 0; b < size; b++) {
      bucket(b * slots, batchExamples[b]);
    }
    for (int b = 0; b < size; b++) {
      for (int j = 1; j < slots; j++) {
        bucket(b * slots + j, sampledSlotSource(b, j));
      }
    }
    for (int t = 0; t < touchedCount; t++) {
      slotCount[touched[t]] = 0;
    }
  }

  private void bucket(int slot, int example) {
    int e = slotCount[batchRows[slot]]++;
    bucketExample[e] = example;
    bucketCoef[e] = batchCoef[slot];
  }

  /** Phase two for the touched classes [r·T/threads, (r+1)·T/threads) of the T touched. */
  @Override
  public void update(int thread) {
    int lo = loop.threads.shareStart(touchedCount, thread);
    int hi = loop.threads.shareStart(touchedCount, thread + 1);
    float[] g = rows.gradient(thread);
    for (int t = lo; t < hi; t++) {
      int k = touched[t];
      double biasGradient = 0;
      for (int e = touchedStart[t]; e < touchedStart[t + 1]; e++) {
        biasGradient += bucketCoef[e];
      }
      int last = rows.stepBias(k, biasGradient, loop.iteration());
      if (columns == 0) {
        continue; // a bias-only model, as A&R's synthetic set, has no weight rows
      }
      sumGradientRow(t, g);
      if (coordinateLast == null) {
        rows.stepRow(k, thread, last);
      } else {
        stepTouchedCoordinates(k, t, g);
      }
    }
  }

  /** g += the gradient row of touched class t: its slots' x_n times their coefficients. */
  void sumGradientRow(int t, float[] g) {
    gatherSlots(touchedStart[t], touchedStart[t + 1], g);
  }

  /** g += Σ x_n c over the bucket entries [from, to), in one call. */
  final void gatherSlots(int from, int to, float[] g) {
    data.features()
        .gatherAxpy(kernels.vectorOps(), bucketExample, from, to - from, bucketCoef, from, g, 0);
  }

  /**
   * Sparse x, large D: applies g at the features of touched class t's examples only, each (row,
   * feature) pair once, with its own last update, and clears g there.
   */
  private void stepTouchedCoordinates(int k, int t, float[] g) {
    int iteration = loop.iteration();
    for (int e = touchedStart[t]; e < touchedStart[t + 1]; e++) {
      int n = bucketExample[e];
      for (int j = sparse.indptr()[n]; j < sparse.indptr()[n + 1]; j++) {
        int feature = sparse.indices()[j];
        int c = k * columns + feature;
        int last = coordinateLast[c];
        if (last == iteration) {
          continue;
        }
        coordinateLast[c] = iteration;
        rows.stepCoordinate(c, g[feature], last);
        g[feature] = 0;
      }
    }
  }

  /**
   * Whether phase two visits the touched (row, feature) pairs one by one rather than whole rows:
   * for sparse x when the rows a batch can touch, times D, exceed four times the pairs it touches
   * (both are exact, since an untouched coordinate only has its s decayed, which the lazy rule does
   * later; whole rows run as vector loops).
   */
  private static boolean updatesByCoordinate(Dataset data, SampledSpec options, int sampled) {
    if (!(data.features() instanceof SparseFeatures s) || data.rows() == 0) {
      return false;
    }
    long batchSlots = (long) Math.min(options.batch(), data.rows()) * (sampled + 1);
    double pairs = batchSlots * (s.storedValues() / (double) data.rows());
    return (double) Math.min(data.classes(), batchSlots) * data.columns() > 4 * pairs;
  }
}
