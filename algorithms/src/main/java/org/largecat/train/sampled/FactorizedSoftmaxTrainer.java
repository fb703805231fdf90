package org.largecat.train.sampled;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.largecat.MemoryBudget;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.VectorOps;
import org.largecat.model.FactorizedModel;
import org.largecat.model.SoftmaxBlock;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainer;

/**
 * Exact-softmax-sgd on a {@link FactorizedModel}: stochastic maximisation of the log-likelihood
 * itself (A&R Eq. 1) over all K classes, its mini-batch gradient taken by gemms at width r. It
 * needs no per-example parameter, as A&R's η_n, and no class samples.
 *
 * <p>Each iteration takes the next mini-batch of an epoch's permutation. Phase one, split across
 * threads by example: each thread chunk's embeddings h_n = Σ_j x_nj v_j (a gather-axpy of the input
 * rows, so x may be sparse), their scores H Uᵀ + b against all K classes by one gemm ({@link
 * SoftmaxBlock}), each row turned into the coefficients C = p − e_y (the loss's gradient in ψ), and
 * ∂L/∂H = −C U by a second gemm. Phase two, split by thread into a range of classes and a share of
 * the batch's input rows: the range's output rows' gradient −Cᵀ H by a third gemm, the biases' −Cᵀ
 * 1 by a gemv, and each touched input row's Σ_n x_nj ∂L/∂h_n by a gather-axpy of the batch's
 * (feature, example) pairs bucketed by feature; every row is applied with the {@link
 * StepSizeSchedule} as in {@link FactorizedTrainer}. Both phases read the model as the batch found
 * it. A step costs 6·|B|·K·r flops in the three gemms and |B|·K exponentials, and holds the |B| × K
 * coefficients; the gemms sum by thread chunk, so the last bits of a run may differ with the thread
 * count.
 */
public final class FactorizedSoftmaxTrainer implements Trainer {
  private final Dataset data;
  private final FactorizedModel model;
  private final Kernels kernels;
  private final VectorOps ops;
  private final int classes;
  private final int rank;

  private final BatchOrder batches;
  private final int[] batchExamples;

  /** Per batch position i: h_i and ∂L/∂h_i (|B| × r), and the coefficients p − e_y (|B| × K). */
  private final float[] embeddings;

  private final float[] embeddingGradients;
  private final float[] coefficients;

  /** |B| ones, for the biases' gradient as a gemv. */
  private final float[] ones;

  /** 0, 1, …, K − 1: the output rows phase two steps, every one each iteration. */
  private final int[] everyClass;

  private final BatchInputRows inputRows;

  private final float[] squaresOutputs;
  private final double[] squaresBiases;
  private final RowUpdate rowUpdate;

  private final MiniBatchLoop loop;
  private final Worker[] workers;
  private final Step mode = new Step();

  /**
   * Prepares to train {@code model} in place on {@code data} with exact-softmax-sgd; {@link
   * FactorizedTrainer#initialModel} gives the random start.
   */
  public FactorizedSoftmaxTrainer(
      Dataset data, FactorizedModel model, SampledSpec options, Kernels kernels) {
    if (options.method() != Method.EXACT_SOFTMAX_SGD) {
      throw new IllegalArgumentException(
          "the factorized exact-softmax trainer runs exact-softmax-sgd, not "
              + options.method().label());
    }
    SampledTrainer.requireTrainable(data, model, options);
    this.data = data;
    this.model = model;
    this.kernels = kernels;
    this.ops = kernels.vectorOps();
    this.classes = data.classes();
    this.rank = model.rank();
    int threads = options.threads();
    loop = new MiniBatchLoop(data.rows(), options, threads);
    batches = loop.batches;
    batchExamples = batches.examples;
    int batch = batchExamples.length;
    embeddings = new float[Math.multiplyExact(batch, rank)];
    embeddingGradients = new float[embeddings.length];
    coefficients =
        new float[MemoryBudget.arrayLength("the batch's scores, |B| × K", 4, batch, classes)];
    ones = new float[batch];
    Arrays.fill(ones, 1f);
    everyClass = IntStream.range(0, classes).toArray();

    rowUpdate = loop.rowUpdate;
    boolean adaptive = rowUpdate.adaptive();
    squaresOutputs = adaptive ? new float[model.outputs().length] : null;
    squaresBiases = adaptive ? new double[classes] : null;
    inputRows =
        new BatchInputRows(data.features(), model, ops, rowUpdate, batch, embeddingGradients);

    workers = new Worker[threads];
    for (int r = 0; r < threads; r++) {
      workers[r] = new Worker(r, threads);
    }
  }

  @Override
  public int iterationsPerEpoch() {
    return loop.iterationsPerEpoch();
  }

  @Override
  public void scaleStepSize(double factor) {
    loop.scaleStepSize(factor);
  }

  /** Runs one iteration and returns the batch's log-likelihood scaled to the training set. */
  @Override
  public double step() {
    return loop.step(mode);
  }

  /** The iteration's parts: the workers' phases, and the input rows bucketed between them. */
  private final class Step implements MiniBatchLoop.Mode {
    @Override
    public double examples(int thread) {
      return workers[thread].examples();
    }

    @Override
    public void betweenPhases() {
      inputRows.bucket(batches.size);
    }

    @Override
    public void update(int thread) {
      workers[thread].update();
    }
  }

  /** Phase one for a thread's chunk of the batch, phase two for its classes and input rows. */
  private final class Worker {
    private final int thread;

    /** Classes [firstClass, endClass): their output rows' gradient (a row each) and biases'. */
    private final int firstClass;

    private final int endClass;
    private final float[] outputGradients;
    private final float[] biasGradients;

    /** A block of input rows' gradients, and a block of rows' step weights. */
    private final float[] gradient = new float[RowUpdate.BLOCK * rank];

    private final float[] fresh = new float[RowUpdate.BLOCK];
    private final float[] keep = new float[RowUpdate.BLOCK];

    Worker(int thread, int threads) {
      this.thread = thread;
      firstClass = (int) ((long) classes * thread / threads);
      endClass = (int) ((long) classes * (thread + 1) / threads);
      outputGradients = new float[Math.multiplyExact(endClass - firstClass, rank)];
      biasGradients = new float[endClass - firstClass];
    }

    /** Phase one for the thread's chunk; returns its log-likelihood. */
    double examples() {
      double logLikelihood = 0;
      int from = loop.chunkStart(thread);
      int to = loop.chunkStart(thread + 1);
      if (from == to) {
        return logLikelihood;
      }
      for (int i = from; i < to; i++) {
        inputRows.embed(batchExamples[i], i, embeddings);
      }
      float[] c = coefficients;
      SoftmaxBlock.scores(kernels, model, embeddings, from * rank, to - from, c, from * classes);
      for (int i = from; i < to; i++) {
        logLikelihood +=
            SoftmaxBlock.lossGradient(
                ops, classes, c, i * classes, data.labels()[batchExamples[i]]);
      }
      kernels
          .matrixOps()
          .gemm(
              false,
              false,
              to - from,
              rank,
              classes,
              -1f,
              c,
              from * classes,
              classes,
              model.outputs(),
              0,
              rank,
              0f,
              embeddingGradients,
              from * rank,
              rank);
      return logLikelihood;
    }

    /** Phase two: the thread's classes, then its share of the touched input rows. */
    void update() {
      if (endClass > firstClass) {
        updateClasses();
      }
      int touched = inputRows.touched();
      int lo = loop.threads.shareStart(touched, thread);
      int hi = loop.threads.shareStart(touched, thread + 1);
      inputRows.update(lo, hi, loop.iteration(), gradient, fresh, keep);
    }

    /** −Cᵀ H for the thread's classes by one gemm, their biases' gradient −Cᵀ 1 by a gemv. */
    private void updateClasses() {
      int count = endClass - firstClass;
      int size = batches.size;
      kernels
          .matrixOps()
          .gemm(
              true,
              false,
              count,
              rank,
              size,
              -1f,
              coefficients,
              firstClass,
              classes,
              embeddings,
              0,
              rank,
              0f,
              outputGradients,
              0,
              rank);
      kernels
          .matrixOps()
          .gemv(
              true,
              size,
              count,
              -1f,
              coefficients,
              firstClass,
              classes,
              ones,
              0,
              0f,
              biasGradients,
              0);
      // Every class has a gradient every iteration: its last update was the previous iteration.
      int last = loop.iteration() - 1;
      for (int j = 0; j < count; j++) {
        rowUpdate.bias(model.biases(), squaresBiases, firstClass + j, biasGradients[j], last);
      }
      for (int q = 0; q < RowUpdate.BLOCK; q++) {
        rowUpdate.weigh(last, fresh, keep, q);
      }
      for (int block = 0; block < count; block += RowUpdate.BLOCK) {
        rowUpdate.step(
            ops,
            model.outputs(),
            squaresOutputs,
            rank,
            everyClass,
            firstClass + block,
            Math.min(RowUpdate.BLOCK, count - block),
            outputGradients,
            block * rank,
            fresh,
            keep);
      }
    }
  }

  @Override
  public void close() {
    loop.close();
  }
}
