package org.largecat.train.sampled;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.VectorOps;
import org.largecat.model.FactorizedModel;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainer;

/**
 * Stochastic maximisation of a {@link SampledBound} over a {@link FactorizedModel}, ψ_k = u_k · h +
 * b_k with h = Σ_j x_j v_j: the bounds see only the scores, so each runs unchanged on this model;
 * only the scores and the updates differ from {@link SampledTrainer}'s.
 *
 * <p>Each iteration takes the next mini-batch of an epoch's permutation and, split across threads
 * by example, embeds each x_n into h_n (a gather-axpy of its nnz input rows, width r), scores the
 * label and |S| sampled classes (a gather-dot of their output rows against h_n), runs the bound's
 * step for the coefficients c = ∂L/∂ψ, and sums ∂L/∂h_n = Σ_i c_i u_{s_i} (a gather-axpy of the
 * same rows). With {@link Sampling#SHARED} the batch shares one class set S, and the three become
 * gemms per thread chunk: scores H U_Sᵀ, ∂L/∂H = C U_S and the gradient of U_S, Cᵀ H. The batch's
 * (example, class) and (example, feature) pairs are then bucketed by row, and, split across threads
 * by touched row, each output row's gradient Σ c h_n and each input row's Σ x_nj ∂L/∂h_n is summed
 * by one gather-axpy and applied with the {@link StepSizeSchedule} (the adaptive step's s decayed
 * lazily for the iterations a row was idle, as in {@link SampledTrainer}). Both phases read the
 * model as the batch found it, so the step is the batch gradient's, with no locks and no lost
 * updates: a run is reproducible for a seed whatever the thread count, except in shared mode, whose
 * gemms sum by thread chunk. The cost per example is O(nnz(x)·r + (|S| + 1)·r).
 */
public final class FactorizedTrainer implements Trainer {
  /** Multiply-adds of a batch's phase one that keep one more thread busy. */
  private static final double WORK_PER_THREAD = 200_000;

  private final Dataset data;
  private final FactorizedModel model;
  private final SampledSpec options;
  private final VectorOps ops;
  private final Kernels kernels;
  private final int classes;
  private final int rank;
  private final int sampled;
  private final int slots;
  private final SampledBound bound;
  private final ClassSampler classSampler;

  /** Shared mode: this iteration's class set S and its rows of U. */
  private final SharedClasses shared;

  private final float[] sharedOutputs;

  private final BatchOrder batches;
  private final int[] batchExamples;

  /** Per batch position i: h_i and ∂L/∂h_i (B x r), its classes and their coefficients. */
  private final float[] embeddings;

  private final float[] embeddingGradients;
  private final int[] batchRows;
  private final float[] batchCoef;

  private final Buckets classBuckets;
  private final BatchInputRows inputRows;

  private final float[] squaresOutputs;
  private final double[] squaresBiases;
  private final int[] classLast;
  private final RowUpdate rowUpdate;

  private final MiniBatchLoop loop;
  private final Worker[] workers;
  private final List<Callable<Void>> gatherPhase;
  private final Step mode = new Step();

  /**
   * Prepares to train {@code model} in place on {@code data}; the model's link must be the
   * method's. {@link #initialModel} gives the random start.
   */
  public FactorizedTrainer(
      Dataset data, FactorizedModel model, SampledSpec options, Kernels kernels) {
    SampledTrainer.requireTrainable(data, model, options);
    this.data = data;
    this.model = model;
    this.options = options;
    this.kernels = kernels;
    this.ops = kernels.vectorOps();
    this.classes = data.classes();
    this.rank = model.rank();
    this.sampled = SampledTrainer.sampledClasses(options, classes);
    this.slots = sampled + 1;
    this.bound = SampledTrainer.bound(data, options, sampled);
    this.classSampler = SampledTrainer.classSampler(data, options, sampled);
    shared =
        options.sampling() == Sampling.SHARED && options.method() != Method.EXACT_SOFTMAX_SGD
            ? new SharedClasses(classSampler, classes, sampled, bound, kernels)
            : null;
    sharedOutputs = shared != null ? new float[Math.multiplyExact(sampled, rank)] : null;

    int batch = Math.min(options.batch(), data.rows());
    double meanRow = data.rows() == 0 ? 0 : data.features().storedValues() / (double) data.rows();
    double work = (double) batch * (2 * slots + 2 * meanRow) * rank;
    int threads = (int) Math.max(1, Math.min(options.threads(), work / WORK_PER_THREAD));
    loop = new MiniBatchLoop(data.rows(), options, threads);
    batches = loop.batches;
    batchExamples = batches.examples;
    embeddings = new float[Math.multiplyExact(batch, rank)];
    embeddingGradients = new float[embeddings.length];
    batchRows = new int[Math.multiplyExact(batch, slots)];
    batchCoef = new float[batchRows.length];
    classBuckets = new Buckets(classes, shared != null ? batch + sampled : batchRows.length);

    rowUpdate = loop.rowUpdate;
    boolean adaptive = rowUpdate.adaptive();
    squaresOutputs = adaptive ? new float[model.outputs().length] : null;
    squaresBiases = adaptive ? new double[classes] : null;
    classLast = new int[classes];
    inputRows =
        new BatchInputRows(data.features(), model, ops, rowUpdate, batch, embeddingGradients);
    workers = new Worker[threads];
    for (int r = 0; r < threads; r++) {
      workers[r] = new Worker(r, (batch + threads - 1) / threads);
    }
    gatherPhase = shared != null ? loop.threads.phase(t -> workers[t].gather()) : null;
  }

  /**
   * The random start of a rank-r model of {@code options.method()}'s link on {@code train}: every
   * input and output weight N(0, 1/r), so that a score u_k · h starts at the scale of ||x||²/r,
   * near the uniform distribution, with gradients of order one in both tables; biases N(0,
   * biasScale²).
   */
  public static FactorizedModel initialModel(Dataset train, SampledSpec options, int rank) {
    return initialModel(train.classes(), train.columns(), options, rank);
  }

  /**
   * As {@link #initialModel(Dataset, SampledSpec, int)} for K = {@code classes}, D = {@code
   * columns}, when the training set is not in this JVM (a distributed one).
   */
  public static FactorizedModel initialModel(
      int classes, int columns, SampledSpec options, int rank) {
    FactorizedModel model = FactorizedModel.zeros(options.method().link(), classes, columns, rank);
    SplittableRandom random = new SplittableRandom(options.seed() ^ 0x5DEECE66DL);
    double scale = 1 / Math.sqrt(rank);
    for (float[] table : new float[][] {model.inputs(), model.outputs()}) {
      for (int i = 0; i < table.length; i++) {
        table[i] = (float) (scale * random.nextGaussian());
      }
    }
    double[] b = model.biases();
    for (int k = 0; k < b.length; k++) {
      b[k] = options.biasScale() * random.nextGaussian();
    }
    return model;
  }

  @Override
  public int iterationsPerEpoch() {
    return loop.iterationsPerEpoch();
  }

  @Override
  public void scaleStepSize(double factor) {
    loop.scaleStepSize(factor);
  }

  /** The threads a batch keeps busy. */
  int threads() {
    return workers.length;
  }

  @Override
  public double step() {
    return loop.step(mode);
  }

  /** The iteration's parts: shared mode's class set and gather, then the workers' phases. */
  private final class Step implements MiniBatchLoop.Mode {
    @Override
    public void beforeExamples() {
      if (shared != null) {
        shared.draw(options.seed(), loop.iteration(), model.biases());
        loop.threads.run(gatherPhase);
      }
    }

    @Override
    public double examples(int thread) {
      return workers[thread].examples();
    }

    @Override
    public void betweenPhases() {
      bucketRows();
    }

    @Override
    public void update(int thread) {
      workers[thread].update();
    }
  }

  /**
   * Buckets the batch's (example, class) slots by class — in shared mode the labels' slots, then
   * one entry −1 − j per shared class j, whose gradient the gemms gave — and its (example, feature)
   * pairs by feature, each in batch order.
   */
  private void bucketRows() {
    classBuckets.clear();
    if (shared == null) {
      for (int i = 0; i < batches.size * slots; i++) {
        classBuckets.add(batchRows[i], i / slots, batchCoef[i]);
      }
    } else {
      for (int i = 0; i < batches.size; i++) {
        classBuckets.add(batchRows[i * slots], i, batchCoef[i * slots]);
      }
      for (int j = 0; j < sampled; j++) {
        classBuckets.add(shared.rows[j], -1 - j, 0f);
      }
    }
    classBuckets.sort();
    inputRows.bucket(batches.size);
  }

  /** Phase one for a thread's chunk of the batch, and phase two for its share of touched rows. */
  private final class Worker {
    private final int thread;
    private final SampledBound.Worker bound;
    private final SharedClasses.Stepper sharedStepper;
    private final CounterRandom random = new CounterRandom();
    private final double[] scores = new double[slots];
    private final float[] coef = new float[slots];
    private final ClassSampler sampler = classSampler.copy();
    private final double[] weight = new double[sampled];
    private final double[] logWeight = new double[sampled];

    /**
     * Shared mode: the chunk's scores against U_S, replaced row by row by their coefficients C, and
     * Cᵀ H (|S| x r).
     */
    private final float[] sharedBlock;

    private final float[] sharedGradient;
    private final double[] sharedCoefSum;

    /** Phase two: a block of rows' gradients and their step weights. */
    private final float[] gradient = new float[RowUpdate.BLOCK * rank];

    private final float[] fresh = new float[RowUpdate.BLOCK];
    private final float[] keep = new float[RowUpdate.BLOCK];

    Worker(int thread, int chunk) {
      this.thread = thread;
      this.bound = FactorizedTrainer.this.bound.worker(kernels, slots);
      sampler.uniformWeights(weight, logWeight);
      boolean isShared = shared != null;
      sharedStepper = isShared ? shared.stepper() : null;
      sharedBlock = isShared ? new float[chunk * sampled] : null;
      sharedGradient = isShared ? new float[sampled * rank] : null;
      sharedCoefSum = isShared ? new double[sampled] : null;
    }

    /**
     * Shared mode, before the gemms: the thread's share of S's rows of U copied into U_S, and its
     * chunk's embeddings.
     */
    void gather() {
      for (int j = sampled * thread / workers.length;
          j < sampled * (thread + 1) / workers.length;
          j++) {
        System.arraycopy(model.outputs(), shared.rows[j] * rank, sharedOutputs, j * rank, rank);
      }
      embedChunk();
    }

    private void embedChunk() {
      for (int i = loop.chunkStart(thread); i < loop.chunkStart(thread + 1); i++) {
        inputRows.embed(batchExamples[i], i, embeddings);
      }
    }

    /** Phase one for the thread's chunk; returns its Σ L̂_n. */
    double examples() {
      int from = loop.chunkStart(thread);
      int to = loop.chunkStart(thread + 1);
      if (shared != null) {
        return sharedExamples(from, to);
      }
      double boundSum = 0;
      int iteration = loop.iteration();
      embedChunk();
      float[] u = model.outputs();
      double[] b = model.biases();
      for (int i = from; i < to; i++) {
        int n = batchExamples[i];
        int base = i * slots;
        int label = data.labels()[n];
        random.reseed(options.seed(), iteration, n);
        batchRows[base] = label;
        sampler.sample(label, batchRows, base + 1, weight, logWeight, random);
        ops.gatherDot(u, classes, rank, batchRows, base, slots, embeddings, i * rank, scores, 0);
        for (int j = 0; j < slots; j++) {
          scores[j] += b[batchRows[base + j]];
        }
        boundSum += bound.step(n, scores, sampled, weight, logWeight, coef, random);
        System.arraycopy(coef, 0, batchCoef, base, slots);
        Arrays.fill(embeddingGradients, i * rank, (i + 1) * rank, 0f);
        ops.gatherAxpy(
            u, classes, rank, batchRows, base, slots, coef, 0, embeddingGradients, i * rank);
      }
      return boundSum;
    }

    /**
     * Shared mode: the chunk's scores against the shared rows are one gemm, H · U_Sᵀ plus the
     * offsets of S's classes; ∂L/∂H = C · U_S (plus the labels' rows) and the shared rows' gradient
     * Cᵀ · H two more.
     */
    private double sharedExamples(int from, int to) {
      double boundSum = 0;
      int iteration = loop.iteration();
      int count = to - from;
      Arrays.fill(sharedCoefSum, 0);
      if (count == 0) {
        Arrays.fill(sharedGradient, 0f); // phase two adds every thread's
        return boundSum;
      }
      float[] u = model.outputs();
      double[] b = model.biases();
      shared.prefill(sharedBlock, count);
      kernels
          .matrixOps()
          .gemm(
              false,
              true,
              count,
              sampled,
              rank,
              1f,
              embeddings,
              from * rank,
              rank,
              sharedOutputs,
              0,
              rank,
              1f,
              sharedBlock,
              0,
              sampled);
      for (int i = from; i < to; i++) {
        int n = batchExamples[i];
        int base = i * slots;
        int label = data.labels()[n];
        batchRows[base] = label;
        double labelScore = ops.dot(rank, embeddings, i * rank, u, label * rank) + b[label];
        int at = (i - from) * sampled;
        boundSum +=
            sharedStepper.step(
                n, label, labelScore, sharedBlock, at, batchCoef, base, options.seed(), iteration);
        for (int j = 0; j < sampled; j++) {
          sharedCoefSum[j] += sharedBlock[at + j];
        }
      }
      kernels
          .matrixOps()
          .gemm(
              false,
              false,
              count,
              rank,
              sampled,
              1f,
              sharedBlock,
              0,
              sampled,
              sharedOutputs,
              0,
              rank,
              0f,
              embeddingGradients,
              from * rank,
              rank);
      for (int i = from; i < to; i++) {
        int label = batchRows[i * slots];
        ops.axpy(rank, batchCoef[i * slots], u, label * rank, embeddingGradients, i * rank);
      }
      kernels
          .matrixOps()
          .gemm(
              true,
              false,
              sampled,
              rank,
              count,
              1f,
              sharedBlock,
              0,
              sampled,
              embeddings,
              from * rank,
              rank,
              0f,
              sharedGradient,
              0,
              rank);
      return boundSum;
    }

    /** Phase two: the thread's share of the touched output rows, then of the input rows. */
    void update() {
      int classRows = classBuckets.touchedCount;
      int touched = classRows + inputRows.touched();
      int lo = loop.threads.shareStart(touched, thread);
      int hi = loop.threads.shareStart(touched, thread + 1);
      for (int block = lo; block < Math.min(hi, classRows); block += RowUpdate.BLOCK) {
        updateClasses(block, Math.min(block + RowUpdate.BLOCK, Math.min(hi, classRows)));
      }
      inputRows.update(
          Math.max(lo, classRows) - classRows,
          hi - classRows,
          loop.iteration(),
          gradient,
          fresh,
          keep);
    }

    /**
     * Output rows and biases of touched classes [from, to), a block stepped in one call: Σ c h_n,
     * and the gemms' rows for shared classes.
     */
    private void updateClasses(int from, int to) {
      Buckets c = classBuckets;
      for (int t = from; t < to; t++) {
        int k = c.touched[t];
        int at = (t - from) * rank;
        int end = c.start[t + 1];
        int examples = c.start[t];
        double biasGradient = 0;
        while (examples < end && c.source[examples] >= 0) {
          biasGradient += c.weight[examples++];
        }
        if (examples > c.start[t]) { // most shared classes are no example's label
          ops.gatherAxpy(
              embeddings,
              batchExamples.length,
              rank,
              c.source,
              c.start[t],
              examples - c.start[t],
              c.weight,
              c.start[t],
              gradient,
              at);
        }
        for (int e = examples; e < end; e++) {
          int j = -1 - c.source[e];
          for (Worker w : workers) {
            ops.axpy(rank, 1f, w.sharedGradient, j * rank, gradient, at);
            biasGradient += w.sharedCoefSum[j];
          }
        }
        int last = classLast[k];
        classLast[k] = loop.iteration();
        rowUpdate.bias(model.biases(), squaresBiases, k, biasGradient, last);
        rowUpdate.weigh(last, fresh, keep, t - from);
      }
      rowUpdate.step(
          ops,
          model.outputs(),
          squaresOutputs,
          rank,
          c.touched,
          from,
          to - from,
          gradient,
          0,
          fresh,
          keep);
    }
  }

  @Override
  public void close() {
    loop.close();
  }

  /**
   * A stable counting sort of (row, source, weight) entries by row, rows in order of first
   * appearance: the entries of touched[t] are [start[t], start[t + 1]) of source and weight.
   */
  static final class Buckets {
    private final int[] count;
    private final int[] entryRow;
    private final int[] entrySource;
    private final float[] entryWeight;
    private int entries;
    final int[] touched;
    int touchedCount;
    final int[] start;
    final int[] source;
    final float[] weight;

    Buckets(int rows, int capacity) {
      count = new int[rows];
      entryRow = new int[capacity];
      entrySource = new int[capacity];
      entryWeight = new float[capacity];
      touched = new int[capacity];
      start = new int[capacity + 1];
      source = new int[capacity];
      weight = new float[capacity];
    }

    void clear() {
      entries = 0;
    }

    void add(int row, int from, float w) {
      entryRow[entries] = row;
      entrySource[entries] = from;
      entryWeight[entries++] = w;
    }

    void sort() {
      touchedCount = 0;
      for (int e = 0; e < entries; e++) {
        int r = entryRow[e];
        touched[touchedCount] = r; // kept when r is new: without a branch
        touchedCount += count[r]++ == 0 ? 1 : 0;
      }
      int at = 0;
      for (int t = 0; t < touchedCount; t++) {
        int r = touched[t];
        start[t] = at;
        at += count[r];
        count[r] = start[t];
      }
      start[touchedCount] = at;
      for (int e = 0; e < entries; e++) {
        int slot = count[entryRow[e]]++;
        source[slot] = entrySource[e];
        weight[slot] = entryWeight[e];
      }
      for (int t = 0; t < touchedCount; t++) {
        count[touched[t]] = 0;
      }
    }
  }
}
