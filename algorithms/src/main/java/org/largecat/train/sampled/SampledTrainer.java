package org.largecat.train.sampled;

import java.util.SplittableRandom;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainer;

/**
 * Stochastic maximisation of a {@link SampledBound} over a linear model (A&R Algorithms 1 and 2,
 * and the OVE and exact baselines with the same machinery).
 *
 * <p>Each iteration takes the next mini-batch of an epoch's permutation ({@link MiniBatchLoop}) and
 * runs one of three steps: for each example, the label and |S| of the K − 1 other classes sampled
 * with {@link ClassSampler}, scored by a gather-dot ({@link PerExampleSlotStep}); in {@link
 * Sampling#SHARED} mode with dense x, one set for the whole batch, scored and differentiated by
 * gemms per thread chunk ({@link SharedGemmSlotStep}); the exact softmax with dense x, all K
 * classes by gemms ({@link LinearSoftmaxStep}). The first two sum each touched class's gradient row
 * from its (example, class) slots ({@link LinearSlotStep}). Every row is applied by the {@link
 * StepSizeSchedule} ({@link LinearRows}): plain SGD, or the adaptive step, whose s is decayed
 * lazily for the iterations in which the coordinate had no gradient, which gives exactly the dense
 * schedule. With a Gaussian prior (MAP) the prior's gradient −w/σ² (on the objective's scale) is
 * added when a coordinate is updated: exact for rows touched every iteration (dense x, most rows),
 * a lazy approximation for coordinates left idle. A run is reproducible for a seed, whatever the
 * thread count except in the gemms' steps, which sum by thread chunk.
 */
public final class SampledTrainer implements Trainer {
  private static final double WORK_PER_THREAD = 200_000;

  private final MiniBatchLoop loop;
  private final MiniBatchLoop.Mode mode;
  private double lastBound = Double.NaN;

  /**
   * Prepares to train {@code model} in place on {@code data}; the model's link must be the
   * method's. Call {@link #initialise} first for the paper's random start.
   */
  public SampledTrainer(Dataset data, LinearModel model, SampledSpec options, Kernels kernels) {
    requireTrainable(data, model, options);
    int classes = data.classes();
    int columns = data.columns();
    int sampled = sampledClasses(options, classes);
    ClassSampler classSampler = classSampler(data, options, sampled);
    SampledBound bound = bound(data, options, sampled);
    boolean sparse = data.features() instanceof SparseFeatures;
    int threads = threadsWorthStarting(data, options, sampled + 1);
    loop = new MiniBatchLoop(data.rows(), options, threads);
    LinearRows rows = new LinearRows(model, kernels.vectorOps(), loop.rowUpdate, threads);
    if (options.method() == Method.EXACT_SOFTMAX_SGD && !sparse && columns > 0) {
      mode = new LinearSoftmaxStep(data, model, kernels, loop, rows);
      return;
    }
    SharedClasses shared =
        options.sampling() == Sampling.SHARED && options.method() != Method.EXACT_SOFTMAX_SGD
            ? new SharedClasses(classSampler, classes, sampled, bound, kernels)
            : null;
    mode =
        shared != null && !sparse && columns > 0
            ? new SharedGemmSlotStep(data, model, options, kernels, loop, rows, sampled, shared)
            : new PerExampleSlotStep(
                data, model, options, kernels, loop, rows, sampled, bound, classSampler, shared);
  }

  /** |S|: the option's, at most K − 1, and K − 1 for the exact softmax. */
  static int sampledClasses(SampledSpec options, int classes) {
    return options.method() == Method.EXACT_SOFTMAX_SGD
        ? classes - 1
        : Math.min(options.sampled(), classes - 1);
  }

  /**
   * Refuses a model whose link is not the method's, whose shape is not the data's, or data with
   * fewer than 2 classes.
   */
  static void requireTrainable(Dataset data, ScoreModel model, SampledSpec options) {
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
  static ClassSampler classSampler(Dataset data, SampledSpec options, int sampled) {
    return options.samplingPower() > 0 && sampled < data.classes() - 1
        ? ClassSampler.frequency(data.classCounts(), options.samplingPower(), sampled)
        : ClassSampler.uniform(data.classes(), sampled);
  }

  /** The bound of {@code options.method()}. */
  static SampledBound bound(Dataset data, SampledSpec options, int sampled) {
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
  public static void initialise(LinearModel model, SampledSpec options) {
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
    return loop.iterationsPerEpoch();
  }

  @Override
  public void scaleStepSize(double factor) {
    loop.scaleStepSize(factor);
  }

  /** Iterations done so far. */
  public int iterations() {
    return loop.iteration();
  }

  /** The threads the batches keep busy (see {@link #threadsWorthStarting}). */
  int threads() {
    return loop.threads.count();
  }

  /** The last iteration's estimate of the bound on the whole training set, (N/|B|) Σ_B L̂_n. */
  public double lastBound() {
    return lastBound;
  }

  /** Runs one iteration and returns its bound estimate. */
  @Override
  public double step() {
    lastBound = loop.step(mode);
    return lastBound;
  }

  /**
   * The threads a batch can keep busy: a thread per {@value #WORK_PER_THREAD} multiply-adds of the
   * batch's gather-dots, at most {@code options.threads()}. Handing a small batch to two threads
   * costs more than it saves.
   */
  private static int threadsWorthStarting(Dataset data, SampledSpec options, int slots) {
    double perRow =
        data.features() instanceof SparseFeatures s && data.rows() > 0
            ? s.storedValues() / (double) data.rows()
            : data.columns();
    double work = (double) Math.min(options.batch(), data.rows()) * slots * Math.max(1, perRow);
    return (int) Math.max(1, Math.min(options.threads(), work / WORK_PER_THREAD));
  }

  @Override
  public void close() {
    loop.close();
  }
}
