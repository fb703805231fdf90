package org.largecat.train.sampled;

import org.largecat.data.Dataset;
import org.largecat.data.Features;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.SampledSpec;

/**
 * Phase one of {@link LinearSlotStep} example by example: each example's |S| classes sampled with
 * {@link ClassSampler}, or, with a shared class set S (sparse x, where a gemm would not pay), S
 * with weight 0 at the example's own label; then one gather-dot of the |S| + 1 weight rows against
 * x_n, and the bound's local step and coefficients. Random draws come from a stream keyed by (seed,
 * iteration, example), so a run is reproducible for a seed whatever the thread count.
 */
final class PerExampleSlotStep extends LinearSlotStep {
  private final SampledBound bound;
  private final ClassSampler classSampler;

  /** This iteration's shared class set S, or null when each example samples its own. */
  private final SharedClasses shared;

  private final Worker[] workers;

  PerExampleSlotStep(
      Dataset data,
      LinearModel model,
      SampledSpec options,
      Kernels kernels,
      MiniBatchLoop loop,
      LinearRows rows,
      int sampled,
      SampledBound bound,
      ClassSampler classSampler,
      SharedClasses shared) {
    super(data, model, options, kernels, loop, rows, sampled);
    this.bound = bound;
    this.classSampler = classSampler;
    this.shared = shared;
    workers = new Worker[loop.threads.count()];
    for (int r = 0; r < workers.length; r++) {
      workers[r] = new Worker();
    }
  }

  @Override
  public void beforeExamples() {
    if (shared != null) {
      shared.draw(options.seed(), loop.iteration(), model.biases());
    }
  }

  @Override
  int sampledSlotSource(int b, int j) {
    return loop.batches.examples[b];
  }

  @Override
  public double examples(int thread) {
    return workers[thread].run(loop.chunkStart(thread), loop.chunkStart(thread + 1));
  }

  /** One thread's scratch for the examples of its chunk. */
  private final class Worker {
    private final SampledBound.Worker bound = PerExampleSlotStep.this.bound.worker(kernels, slots);
    private final CounterRandom random = new CounterRandom();
    private final double[] scores = new double[slots];
    private final float[] coef = new float[slots];
    private final ClassSampler sampler = classSampler.copy();
    private final double[] weight = new double[sampled];
    private final double[] logWeight = new double[sampled];

    Worker() {
      sampler.uniformWeights(weight, logWeight);
    }

    /** The chunk [from, to) of the batch; returns its Σ L̂_n. */
    double run(int from, int to) {
      double boundSum = 0;
      int[] batchExamples = loop.batches.examples;
      int iteration = loop.iteration();
      Features x = data.features();
      float[] w = model.weights();
      double[] b = model.biases();
      for (int i = from; i < to; i++) {
        int n = batchExamples[i];
        int base = i * slots;
        int label = data.labels()[n];
        random.reseed(options.seed(), iteration, n);
        batchRows[base] = label;
        if (shared == null) {
          sampler.sample(label, batchRows, base + 1, weight, logWeight, random);
        } else {
          System.arraycopy(shared.rows, 0, batchRows, base + 1, sampled);
          ClassSampler.excludeLabel(
              label, shared.rows, 0, shared.weight, shared.logWeight, sampled, weight, logWeight);
        }
        x.gatherDot(kernels.vectorOps(), w, classes, n, batchRows, base, slots, scores, 0);
        for (int j = 0; j < slots; j++) {
          scores[j] += b[batchRows[base + j]];
        }
        boundSum += bound.step(n, scores, sampled, weight, logWeight, coef, random);
        System.arraycopy(coef, 0, batchCoef, base, slots);
      }
      return boundSum;
    }
  }
}
