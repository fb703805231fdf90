package org.largecat.train.sampled;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;
import org.largecat.model.SoftmaxBlock;
import org.largecat.train.Method;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingOptions;
import org.largecat.train.TrainingThreads;

/**
 * Stochastic maximisation of a {@link SampledBound} over a linear model (A&R Algorithms 1 and 2,
 * and the OVE and exact baselines with the same machinery).
 *
 * <p>Each iteration takes the next mini-batch of an epoch's permutation (the last batch of an epoch
 * may be smaller, so a batch never holds an example twice), and for each example samples |S| of the
 * K − 1 other classes with {@link ClassSampler} — or, in {@link Sampling#SHARED} mode, one set for
 * the whole batch, each example giving weight 0 to its own label. Phase one, split across threads
 * by example: one gather-dot of the |S| + 1 weight rows against x_n, and the bound's local step and
 * coefficients (shared mode with dense x: one gemm per thread chunk for the scores of the shared
 * rows, one for their gradient). The batch's (example, class) slots are then bucketed by class.
 * Phase two, split across threads by touched class: a class's gradient row is summed in a D-long
 * buffer by one gather-axpy of its slots' x_n, and applied at once, for the whole row or for every
 * touched (row, feature) pair when x is sparse and D large, by the {@link StepSizeSchedule}: plain
 * SGD, or the adaptive step, whose s is decayed lazily for the iterations in which the coordinate
 * had no gradient, which gives exactly the dense schedule. Summing by class keeps the gradient out
 * of a K x D buffer: each weight row and its s are read and written once an iteration, and x_n
 * comes from the cache. With a Gaussian prior (MAP) the prior's gradient −w/σ² (on the objective's
 * scale) is added when a coordinate is updated: exact for rows touched every iteration (dense x,
 * most rows), a lazy approximation for coordinates left idle. Random draws come from a stream keyed
 * by (seed, iteration, example), and every gradient is summed in a fixed order (a class's label
 * slots, then its sampled ones, each in batch order), so a run is reproducible for a seed, whatever
 * the thread count except in shared mode with dense x, whose gemms sum by thread chunk.
 *
 * <p>The exact softmax with dense x skips the slots: phase one takes each thread chunk's scores
 * against all K rows by one gemm and turns them row by row into the coefficients C = p − e_y
 * ({@link SoftmaxBlock}); phase two, split by class, takes a block of classes' gradient rows −Cᵀ
 * X_B by another gemm and applies them. A step is two gemms of the batch against W and the row-wise
 * softmax, and its results may differ in the last bits with the thread count (the gemm's sums).
 */
public final class SampledTrainer implements Trainer {
  private final Dataset data;
  private final LinearModel model;
  private final TrainingOptions options;
  private final Kernels kernels;
  private final SampledBound bound;
  private final int classes;
  private final int columns;
  private final int sampled;
  private final int slots;
  private final ClassSampler classSampler;
  private final SparseFeatures sparse;

  /** Shared mode: this iteration's class set S, and with dense x its rows of W. */
  private final SharedClasses shared;

  private final float[] sharedWeights;

  /**
   * Each slot's coefficient, and the slots bucketed by class: the entries [touchedStart[t],
   * touchedStart[t + 1]) are class touched[t]'s, each with its coefficient and its example, or −1 −
   * j for shared class j when a gemm gives that gradient.
   */
  private final float[] batchCoef;

  private final int[] slotCount;
  private final int[] touched;
  private int touchedCount;
  private final int[] touchedStart;
  private final int[] bucketExample;
  private final float[] bucketCoef;

  /** Per thread: the gradient row of the class being updated, and copies of its weights and s. */
  private final RowBuffers[] rowBuffers;

  private final float[] squares;
  private final double[] biasSquares;
  private final int[] rowLast;
  private final int[] coordinateLast;

  private final BatchOrder batches;
  private final int[] batchExamples;
  private final int[] batchRows;

  /**
   * Exact softmax, dense x: the batch's rows of x, and its scores turned into coefficients p − e_y
   * (batch × K); per thread, the gradient rows of a block of classes and of their biases.
   */
  private final float[] batchFeatures;

  private final float[] batchCoefficients;
  private final float[][] gradientBlocks;
  private final double[][] biasGradientBlocks;
  private static final int CLASS_BLOCK = 128;

  private final ExampleWorker[] workers;
  private final List<Callable<Void>> examplePhase;
  private final List<Callable<Void>> updatePhase;
  private final TrainingThreads threadPool;
  private static final double WORK_PER_THREAD = 200_000;
  private final RowUpdate rowUpdate;
  private int iteration;

  /** The product of the step reductions of {@link #scaleStepSize}. */
  private double stepScale = 1;

  private double lastBound = Double.NaN;

  /**
   * Prepares to train {@code model} in place on {@code data}; the model's link must be the
   * method's. Call {@link #initialise} first for the paper's random start.
   */
  public SampledTrainer(Dataset data, LinearModel model, TrainingOptions options, Kernels kernels) {
    requireTrainable(data, model, options);
    this.data = data;
    this.model = model;
    this.options = options;
    this.kernels = kernels;
    this.classes = data.classes();
    this.columns = data.columns();
    this.sampled = sampledClasses(options, classes);
    this.slots = sampled + 1;
    this.classSampler = classSampler(data, options, sampled);
    this.bound = bound(data, options, sampled);
    this.sparse = data.features() instanceof SparseFeatures s ? s : null;
    boolean fullDense =
        options.method() == Method.EXACT_SOFTMAX_SGD && sparse == null && columns > 0;
    boolean sharedMode =
        options.sampling() == Sampling.SHARED && options.method() != Method.EXACT_SOFTMAX_SGD;
    shared = sharedMode ? new SharedClasses(classSampler, classes, sampled, bound, kernels) : null;
    sharedWeights =
        sharedMode && sparse == null ? new float[Math.multiplyExact(sampled, columns)] : null;
    int threads = threadsWorthStarting(data, options, slots);
    int cells = Math.multiplyExact(classes, columns);
    rowUpdate = new RowUpdate(options, data.rows());
    squares = rowUpdate.adaptive() ? new float[cells] : null;
    biasSquares = rowUpdate.adaptive() ? new double[classes] : null;
    rowLast = new int[classes];
    coordinateLast = updatesByCoordinate(data, options, sampled) ? new int[cells] : null;
    batches = new BatchOrder(data.rows(), options.batch(), options.seed());
    batchExamples = batches.examples;
    batchRows = new int[fullDense ? 0 : Math.multiplyExact(batchExamples.length, slots)];
    batchCoef = new float[batchRows.length];
    slotCount = new int[classes];
    touched = new int[batchRows.length];
    touchedStart = new int[batchRows.length + 1];
    bucketExample = new int[batchRows.length];
    bucketCoef = new float[batchRows.length];
    batchFeatures = fullDense ? new float[Math.multiplyExact(batchExamples.length, columns)] : null;
    batchCoefficients =
        fullDense ? new float[Math.multiplyExact(batchExamples.length, classes)] : null;
    gradientBlocks = new float[fullDense ? threads : 0][CLASS_BLOCK * columns];
    biasGradientBlocks = new double[fullDense ? threads : 0][CLASS_BLOCK];
    rowBuffers = new RowBuffers[threads];
    for (int r = 0; r < threads; r++) {
      rowBuffers[r] = new RowBuffers(new float[columns], new int[1], new float[1], new float[1]);
    }
    workers = new ExampleWorker[threads];
    for (int r = 0; r < threads; r++) {
      workers[r] = new ExampleWorker(r, (batchExamples.length + threads - 1) / threads);
    }
    threadPool = new TrainingThreads(threads);
    examplePhase = threadPool.phase(t -> workers[t].run());
    updatePhase = threadPool.phase(this::update);
  }

  /** |S|: the option's, at most K − 1, and K − 1 for the exact softmax. */
  static int sampledClasses(TrainingOptions options, int classes) {
    return options.method() == Method.EXACT_SOFTMAX_SGD
        ? classes - 1
        : Math.min(options.sampled(), classes - 1);
  }

  /**
   * Refuses a model whose link is not the method's, whose shape is not the data's, or data with
   * fewer than 2 classes.
   */
  static void requireTrainable(Dataset data, ScoreModel model, TrainingOptions options) {
    if (model.link() != options.method().link()) {
      throw new IllegalArgumentException(
          options.method().label()
              + " fits a "
              + options.method().link()
              + " model, not "
              + model.link());
    }
    model.requireShapeOf(data);
    if (data.classes() < 2) {
      throw new IllegalArgumentException(
          "training needs at least 2 classes, the data have " + data.classes());
    }
  }

  /** The sampler of |S| classes: uniform, or by frequency with {@code options.samplingPower()}. */
  static ClassSampler classSampler(Dataset data, TrainingOptions options, int sampled) {
    return options.samplingPower() > 0 && sampled < data.classes() - 1
        ? ClassSampler.frequency(data.classCounts(), options.samplingPower(), sampled)
        : ClassSampler.uniform(data.classes(), sampled);
  }

  /** The bound of {@code options.method()}. */
  static SampledBound bound(Dataset data, TrainingOptions options, int sampled) {
    int classes = data.classes();
    return switch (options.method()) {
      case AR_SOFTMAX -> new SoftmaxAugmentReduce(data.rows(), classes);
      case AR_PROBIT, AR_LOGISTIC -> new NoiseAugmentReduce(options.method().link(), data.rows());
      case OVE -> new OneVsEach();
      case NCE ->
          new NoiseContrastiveEstimation(
              data,
              options.samplingPower() > 0 && sampled < classes - 1 ? options.samplingPower() : 0,
              sampled);
      case IMPORTANCE_SAMPLING -> new ImportanceSampledSoftmax();
      case DOUBLE_SUM_SGD, UMAX, IMPLICIT_SGD, IMPLICIT_SGD_BATCH, UMAX_RAMAN ->
          throw new IllegalArgumentException(
              options.method().label() + " is a double-sum method, see Trainers");
      case EXACT_SOFTMAX ->
          throw new IllegalArgumentException(
              "exact-softmax is the full-batch solver of org.largecat.train.fullbatch");
      case EXACT_SOFTMAX_SGD -> new ExactSoftmax();
    };
  }

  /**
   * Draws the initial weights N(0, weightScale²) and biases N(0, biasScale²) from the seed (§4).
   */
  public static void initialise(LinearModel model, TrainingOptions options) {
    SplittableRandom random = new SplittableRandom(options.seed() ^ 0x5DEECE66DL);
    float[] w = model.weights();
    for (int i = 0; i < w.length; i++) {
      w[i] = (float) (options.weightScale() * random.nextGaussian());
    }
    double[] b = model.biases();
    for (int k = 0; k < b.length; k++) {
      b[k] = options.biasScale() * random.nextGaussian();
    }
  }

  /** Iterations per epoch: ⌈N / |B|⌉. */
  @Override
  public int iterationsPerEpoch() {
    return (data.rows() + batchExamples.length - 1) / batchExamples.length;
  }

  @Override
  public void scaleStepSize(double factor) {
    stepScale *= factor;
  }

  /** Iterations done so far. */
  public int iterations() {
    return iteration;
  }

  /** The threads the batches keep busy (see {@link #threadsWorthStarting}). */
  int threads() {
    return workers.length;
  }

  /** The last iteration's estimate of the bound on the whole training set, (N/|B|) Σ_B L̂_n. */
  public double lastBound() {
    return lastBound;
  }

  /** Runs one iteration and returns its bound estimate. */
  @Override
  public double step() {
    iteration++;
    batches.next();
    if (shared != null) {
      drawSharedClasses();
    }
    threadPool.run(examplePhase);
    if (batchCoefficients == null) {
      bucketSlotsByClass();
    }
    rowUpdate.prepare(iteration, batches.epoch(), batches.size, stepScale);
    threadPool.run(updatePhase);
    double sum = 0;
    for (ExampleWorker w : workers) {
      sum += w.boundSum;
    }
    lastBound = data.rows() / (double) batches.size * sum;
    return lastBound;
  }

  /** A counting sort of the batch's slots by class, classes in order of first appearance. */
  private void bucketSlotsByClass() {
    int end = batches.size * slots;
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
    // The label slots first, so that with the shared gemm a class's examples come before its -1 -
    // j.
    boolean sharedGemm = workers[0].sharedGradient != null;
    for (int b = 0; b < batches.size; b++) {
      bucket(b * slots, batchExamples[b]);
    }
    for (int b = 0; b < batches.size; b++) {
      for (int j = 1; j < slots; j++) {
        bucket(b * slots + j, sharedGemm ? -j : batchExamples[b]);
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

  private void drawSharedClasses() {
    shared.draw(options.seed(), iteration, model.biases());
    if (sharedWeights != null) {
      for (int j = 0; j < sampled; j++) {
        System.arraycopy(
            model.weights(), shared.rows[j] * columns, sharedWeights, j * columns, columns);
      }
    }
  }

  /** Phase one for the examples [r·B/T, (r+1)·B/T) of the batch. */
  private final class ExampleWorker {
    private final int thread;
    private final SampledBound.Worker bound;
    private final CounterRandom random = new CounterRandom();
    private final double[] scores = new double[slots];
    private final float[] coef = new float[slots];
    private final ClassSampler sampler = classSampler.copy();
    private final double[] weight = new double[sampled];
    private final double[] logWeight = new double[sampled];

    /**
     * Shared mode, dense x: the chunk's rows of x, its scores against W_S and their coefficients,
     * and C^T X.
     */
    private final float[] examples;

    private final float[] sharedBlock;
    private final float[] sharedGradient;
    private final SharedClasses.Stepper sharedStepper;
    double boundSum;

    ExampleWorker(int thread, int chunk) {
      this.thread = thread;
      this.bound = SampledTrainer.this.bound.worker(kernels, slots);
      sampler.uniformWeights(weight, logWeight);
      boolean gemm = shared != null && sparse == null && columns > 0;
      examples = gemm ? new float[chunk * columns] : null;
      sharedBlock = gemm ? new float[chunk * sampled] : null;
      sharedGradient = gemm ? new float[sampled * columns] : null;
      sharedStepper = gemm ? shared.stepper() : null;
    }

    void run() {
      boundSum = 0;
      int threads = workers.length;
      int from = (int) ((long) batches.size * thread / threads);
      int to = (int) ((long) batches.size * (thread + 1) / threads);
      if (examples != null) {
        runSharedDense(from, to);
        return;
      }
      if (batchCoefficients != null) {
        runFullDense(from, to);
        return;
      }
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
    }

    /**
     * Exact softmax with dense x: the chunk's rows of x into the batch's, their scores against all
     * K rows by one gemm, and each row of scores into p − e_y, the gradient of −log p(y | x) in ψ
     * (A&R Eq. 1).
     */
    private void runFullDense(int from, int to) {
      if (from == to) {
        return;
      }
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
    }

    /**
     * Shared mode with dense x: the chunk's scores against the shared rows are one gemm, X_chunk ·
     * W_Sᵀ plus the offsets of S's classes, and their gradient another, Cᵀ · X_chunk, which phase
     * two adds to the rows of S; the labels' rows take their own dot here and their axpy there.
     */
    private void runSharedDense(int from, int to) {
      int count = to - from;
      if (count == 0) {
        Arrays.fill(sharedGradient, 0f); // phase two adds every thread's
        return;
      }
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
    }
  }

  /** Phase two for the touched classes [r·T/threads, (r+1)·T/threads) of the T touched. */
  private void update(int thread) {
    int threads = workers.length;
    int lo = (int) ((long) touchedCount * thread / threads);
    int hi = (int) ((long) touchedCount * (thread + 1) / threads);
    RowBuffers row = rowBuffers[thread];
    if (batchCoefficients != null) {
      updateAllClasses(thread, row);
      return;
    }
    float[] g = row.gradient;
    for (int t = lo; t < hi; t++) {
      int k = touched[t];
      double biasGradient = 0;
      for (int e = touchedStart[t]; e < touchedStart[t + 1]; e++) {
        biasGradient += bucketCoef[e];
      }
      int last = rowLast[k];
      rowLast[k] = iteration;
      rowUpdate.bias(model.biases(), biasSquares, k, biasGradient, last);
      if (columns == 0) {
        continue; // a bias-only model, as A&R's synthetic set, has no weight rows
      }
      sumGradientRow(t, g);
      if (coordinateLast == null) {
        updateRow(k, row, last);
      } else {
        updateTouchedCoordinates(k, t, g);
      }
    }
  }

  /**
   * Phase two of the exact softmax with dense x, for the classes [r·K/threads, (r+1)·K/threads): a
   * block of classes' gradient rows at a time by one gemm, −Cᵀ X_B, their biases' as the columns'
   * negated sums in batch order, each row applied as a touched row is.
   */
  private void updateAllClasses(int thread, RowBuffers row) {
    int threads = workers.length;
    int lo = (int) ((long) classes * thread / threads);
    int hi = (int) ((long) classes * (thread + 1) / threads);
    float[] block = gradientBlocks[thread];
    double[] biasGradients = biasGradientBlocks[thread];
    for (int first = lo; first < hi; first += CLASS_BLOCK) {
      int count = Math.min(CLASS_BLOCK, hi - first);
      kernels
          .matrixOps()
          .gemm(
              true,
              false,
              count,
              columns,
              batches.size,
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
      for (int b = 0; b < batches.size; b++) {
        for (int j = 0; j < count; j++) {
          biasGradients[j] -= batchCoefficients[b * classes + first + j];
        }
      }
      for (int j = 0; j < count; j++) {
        int k = first + j;
        int last = rowLast[k];
        rowLast[k] = iteration;
        rowUpdate.bias(model.biases(), biasSquares, k, biasGradients[j], last);
        System.arraycopy(block, j * columns, row.gradient, 0, columns);
        updateRow(k, row, last);
      }
    }
  }

  /**
   * g += the gradient row of touched class t: its slots' x_n times their coefficients, in one call,
   * and, when the class is a shared one whose gradient the gemms gave, their rows.
   */
  private void sumGradientRow(int t, float[] g) {
    int from = touchedStart[t];
    int examples = touchedStart[t + 1];
    while (examples > from && bucketExample[examples - 1] < 0) {
      examples--;
    }
    data.features()
        .gatherAxpy(
            kernels.vectorOps(), bucketExample, from, examples - from, bucketCoef, from, g, 0);
    if (examples < touchedStart[t + 1]) {
      int sharedSlot = -1 - bucketExample[examples];
      for (ExampleWorker worker : workers) {
        kernels.vectorOps().axpy(columns, 1f, worker.sharedGradient, sharedSlot * columns, g, 0);
      }
    }
  }

  /**
   * The threads a batch can keep busy: a thread per {@value #WORK_PER_THREAD} multiply-adds of the
   * batch's gather-dots, at most {@code options.threads()}. Handing a small batch to two threads
   * costs more than it saves.
   */
  private static int threadsWorthStarting(Dataset data, TrainingOptions options, int slots) {
    double perRow =
        data.features() instanceof SparseFeatures s && data.rows() > 0
            ? s.storedValues() / (double) data.rows()
            : data.columns();
    double work = (double) Math.min(options.batch(), data.rows()) * slots * Math.max(1, perRow);
    return (int) Math.max(1, Math.min(options.threads(), work / WORK_PER_THREAD));
  }

  /**
   * Whether phase two visits the touched (row, feature) pairs one by one rather than whole rows:
   * for sparse x when the rows a batch can touch, times D, exceed four times the pairs it touches
   * (both are exact, since an untouched coordinate only has its s decayed, which the lazy rule does
   * later; whole rows run as vector loops).
   */
  private static boolean updatesByCoordinate(Dataset data, TrainingOptions options, int sampled) {
    if (!(data.features() instanceof SparseFeatures s) || data.rows() == 0) {
      return false;
    }
    long batchSlots = (long) Math.min(options.batch(), data.rows()) * (sampled + 1);
    double pairs = batchSlots * (s.storedValues() / (double) data.rows());
    return (double) Math.min(data.classes(), batchSlots) * data.columns() > 4 * pairs;
  }

  /**
   * A thread's row of gradient, and the row's index and step weights for one {@link
   * RowUpdate#step}.
   */
  private record RowBuffers(float[] gradient, int[] index, float[] fresh, float[] keep) {}

  /**
   * Applies the summed gradient of row k, last updated at iteration {@code last}, and clears it.
   */
  private void updateRow(int k, RowBuffers row, int last) {
    row.index[0] = k;
    rowUpdate.weigh(last, row.fresh, row.keep, 0);
    rowUpdate.step(
        kernels.vectorOps(),
        model.weights(),
        squares,
        columns,
        row.index,
        0,
        1,
        row.gradient,
        0,
        row.fresh,
        row.keep);
  }

  /**
   * Sparse x, large D: applies g at the features of touched class t's examples only, each (row,
   * feature) pair once, with its own last update, and clears g there.
   */
  private void updateTouchedCoordinates(int k, int t, float[] g) {
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
        rowUpdate.coordinate(model.weights(), squares, c, g[feature], last);
        g[feature] = 0;
      }
    }
  }

  @Override
  public void close() {
    threadPool.close();
  }
}
