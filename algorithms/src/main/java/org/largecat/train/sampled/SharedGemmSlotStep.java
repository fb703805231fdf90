package org.largecat.train.sampled;

import java.util.Arrays;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.SampledSpec;
import org.largecat.train.Sampling;

/**
 * Phase one of {@link LinearSlotStep} in {@link Sampling#SHARED} mode with dense x, the batch
 * sharing one class set S: a thread chunk's scores against the shared rows are one gemm, X_chunk ·
 * W_Sᵀ plus the offsets of S's classes, and their gradient another, Cᵀ · X_chunk, which phase two
 * adds to the rows of S; the labels' rows take their own dot here and their gather-axpy there. The
 * gemms sum by thread chunk, so the last bits of a run may differ with the thread count.
 */
final class SharedGemmSlotStep extends LinearSlotStep {
  /** This iteration's class set S, and its rows of W. */
  private final SharedClasses shared;

  private final float[] sharedWeights;
  private final Worker[] workers;

  SharedGemmSlotStep(
      Dataset data,
      LinearModel model,
      SampledSpec options,
      Kernels kernels,
      MiniBatchLoop loop,
      LinearRows rows,
      int sampled,
      SharedClasses shared) {
    super(data, model, options, kernels, loop, rows, sampled);
    this.shared = shared;
    sharedWeights = new float[Math.multiplyExact(sampled, columns)];
    int threads = loop.threads.count();
    int chunk = (loop.batches.examples.length + threads - 1) / threads;
    workers = new Worker[threads];
    for (int r = 0; r < threads; r++) {
      workers[r] = new Worker(chunk);
    }
  }

  @Override
  public void beforeExamples() {
    shared.draw(options.seed(), loop.iteration(), model.biases());
    for (int j = 0; j < sampled; j++) {
      System.arraycopy(
          model.weights(), shared.rows[j] * columns, sharedWeights, j * columns, columns);
    }
  }

  /** −j: phase two adds the gemms' gradient of shared class j − 1 in place of a gather. */
  @Override
  int sampledSlotSource(int b, int j) {
    return -j;
  }

  @Override
  public double examples(int thread) {
    return workers[thread].run(loop.chunkStart(thread), loop.chunkStart(thread + 1));
  }

  /**
   * The label slots' gather-axpy, and, when the class is a shared one, the rows of its gradient
   * that every thread's gemm gave.
   */
  @Override
  void sumGradientRow(int t, float[] g) {
    int from = touchedStart[t];
    int examples = touchedStart[t + 1];
    while (examples > from && bucketExample[examples - 1] < 0) {
      examples--;
    }
    gatherSlots(from, examples, g);
    if (examples < touchedStart[t + 1]) {
      int sharedSlot = -1 - bucketExample[examples];
      for (Worker worker : workers) {
        kernels.vectorOps().axpy(columns, 1f, worker.sharedGradient, sharedSlot * columns, g, 0);
      }
    }
  }

  /** One thread's chunk: its rows of x, its scores against W_S and their coefficients, and Cᵀ X. */
  private final class Worker {
    private final float[] examples;
    private final float[] sharedBlock;
    private final float[] sharedGradient;
    private final SharedClasses.Stepper sharedStepper = shared.stepper();

    Worker(int chunk) {
      examples = new float[chunk * columns];
      sharedBlock = new float[chunk * sampled];
      sharedGradient = new float[sampled * columns];
    }

    /** The chunk [from, to) of the batch; returns its Σ L̂_n. */
    double run(int from, int to) {
      double boundSum = 0;
      int count = to - from;
      if (count == 0) {
        Arrays.fill(sharedGradient, 0f); // phase two adds every thread's
        return boundSum;
      }
      int[] batchExamples = loop.batches.examples;
      int iteration = loop.iteration();
      float[] x = ((DenseFeatures) data.features()).values();
      float[] w = model.weights();
      double[] b = model.biases();
      for (int i = from; i < to; i++) {
        System.arraycopy(x, batchExamples[i] * columns, examples, (i - from) * columns, columns);
      }
      shared.prefill(sharedBlock, count);
      kernels
          .matrixOps()
          .gemm(
              false,
              true,
              count,
              sampled,
              columns,
              1f,
              examples,
              0,
              columns,
              sharedWeights,
              0,
              columns,
              1f,
              sharedBlock,
              0,
              sampled);
      for (int i = from; i < to; i++) {
        int n = batchExamples[i];
        int base = i * slots;
        int label = data.labels()[n];
        int row = (i - from) * columns;
        int at = (i - from) * sampled;
        batchRows[base] = label;
        System.arraycopy(shared.rows, 0, batchRows, base + 1, sampled);
        double labelScore =
            kernels.vectorOps().dot(columns, examples, row, w, label * columns) + b[label];
        boundSum +=
            sharedStepper.step(
                n, label, labelScore, sharedBlock, at, batchCoef, base, options.seed(), iteration);
        System.arraycopy(sharedBlock, at, batchCoef, base + 1, sampled);
      }
      kernels
          .matrixOps()
          .gemm(
              true,
              false,
              sampled,
              columns,
              count,
              1f,
              sharedBlock,
              0,
              sampled,
              examples,
              0,
              columns,
              0f,
              sharedGradient,
              0,
              columns);
      return boundSum;
    }
  }
}
