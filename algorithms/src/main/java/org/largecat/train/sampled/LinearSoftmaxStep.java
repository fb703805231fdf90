package org.largecat.train.sampled;

import java.util.Arrays;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.SoftmaxBlock;

/**
 * The {@link SampledTrainer}'s step of the exact softmax with dense x, which needs no slots. Phase
 * one takes each thread chunk's scores against all K rows by one gemm and turns them row by row
 * into the coefficients C = p − e_y ({@link SoftmaxBlock}); phase two, split by class, takes a
 * block of classes' gradient rows −Cᵀ X_B by another gemm and applies them. A step is two gemms of
 * the batch against W and the row-wise softmax, and its results may differ in the last bits with
 * the thread count (the gemm's sums).
 */
final class LinearSoftmaxStep implements MiniBatchLoop.Mode {
  private static final int CLASS_BLOCK = 128;

  private final Dataset data;
  private final LinearModel model;
  private final Kernels kernels;
  private final MiniBatchLoop loop;
  private final LinearRows rows;
  private final int classes;
  private final int columns;

  /** The batch's rows of x, and its scores turned into coefficients p − e_y (|B| × K). */
  private final float[] batchFeatures;

  private final float[] batchCoefficients;

  /** Per thread: the gradient rows of a block of classes and of their biases. */
  private final float[][] gradientBlocks;

  private final double[][] biasGradientBlocks;

  LinearSoftmaxStep(
      Dataset data, LinearModel model, Kernels kernels, MiniBatchLoop loop, LinearRows rows) {
    this.data = data;
    this.model = model;
    this.kernels = kernels;
    this.loop = loop;
    this.rows = rows;
    this.classes = data.classes();
    this.columns = data.columns();
    int batch = loop.batches.examples.length;
    int threads = loop.threads.count();
    batchFeatures = new float[Math.multiplyExact(batch, columns)];
    batchCoefficients = new float[Math.multiplyExact(batch, classes)];
    gradientBlocks = new float[threads][CLASS_BLOCK * columns];
    biasGradientBlocks = new double[threads][CLASS_BLOCK];
  }

  /**
   * The chunk's rows of x into the batch's, their scores against all K rows by one gemm, and each
   * row of scores into p − e_y, the gradient of −log p(y | x) in ψ (A&R Eq. 1).
   */
  @Override
  public double examples(int thread) {
    int from = loop.chunkStart(thread);
    int to = loop.chunkStart(thread + 1);
    double boundSum = 0;
    if (from == to) {
      return boundSum;
    }
    int[] batchExamples = loop.batches.examples;
    float[] x = ((DenseFeatures) data.features()).values();
    for (int i = from; i < to; i++) {
      System.arraycopy(x, batchExamples[i] * columns, batchFeatures, i * columns, columns);
    }
    float[] c = batchCoefficients;
    SoftmaxBlock.scores(
        kernels, model, batchFeatures, from * columns, to - from, c, from * classes);
    for (int i = from; i < to; i++) {
      boundSum +=
          SoftmaxBlock.lossGradient(
              kernels.vectorOps(), classes, c, i * classes, data.labels()[batchExamples[i]]);
    }
    return boundSum;
  }

  /**
   * Phase two for the classes [r·K/threads, (r+1)·K/threads): a block of classes' gradient rows at
   * a time by one gemm, −Cᵀ X_B, their biases' as the columns' negated sums in batch order, each
   * row applied as a touched row is.
   */
  @Override
  public void update(int thread) {
    int lo = loop.threads.shareStart(classes, thread);
    int hi = loop.threads.shareStart(classes, thread + 1);
    int size = loop.batches.size;
    float[] block = gradientBlocks[thread];
    double[] biasGradients = biasGradientBlocks[thread];
    float[] gradient = rows.gradient(thread);
    for (int first = lo; first < hi; first += CLASS_BLOCK) {
      int count = Math.min(CLASS_BLOCK, hi - first);
      kernels
          .matrixOps()
          .gemm(
              true,
              false,
              count,
              columns,
              size,
              -1f,
              batchCoefficients,
              first,
              classes,
              batchFeatures,
              0,
              columns,
              0f,
              block,
              0,
              columns);
      Arrays.fill(biasGradients, 0);
      for (int b = 0; b < size; b++) {
        for (int j = 0; j < count; j++) {
          biasGradients[j] -= batchCoefficients[b * classes + first + j];
        }
      }
      for (int j = 0; j < count; j++) {
        int k = first + j;
        int last = rows.stepBias(k, biasGradients[j], loop.iteration());
        System.arraycopy(block, j * columns, gradient, 0, columns);
        rows.stepRow(k, thread, last);
      }
    }
  }
}
