package org.largecat.train.fullbatch;

import java.util.Objects;
import org.largecat.MemoryBudget;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.FullBatchSpec;
import org.largecat.train.TrainingRun;

/**
 * Fits a softmax {@link LinearModel} by maximising the exact log-likelihood, plus the log of a
 * Gaussian prior, over the whole training set at every step: {@link Lbfgs} on the {@link
 * SoftmaxObjective}, in double precision, from the model's own weights (from the log class
 * frequencies when they are all zero). The objective is strictly concave when the prior variance is
 * positive, so the optimum is unique and reached from any start. The weights are rounded to float
 * once, at the end.
 */
public final class FullBatchSoftmax {
  private FullBatchSoftmax() {}

  /** Told after each iteration. */
  @FunctionalInterface
  public interface Progress {
    /**
     * @param objective the objective (to maximise) at the double iterate
     * @param gradientNorm its ‖∇‖∞
     * @param relativeChange its change over the iteration, relative (positive: it improved)
     */
    void iteration(
        int iteration,
        int passes,
        double objective,
        double gradientNorm,
        double relativeChange,
        double seconds);
  }

  /**
   * Fits {@code model} in place on {@code data}.
   *
   * @throws IllegalArgumentException when the model is not a softmax one of the data's shape, or
   *     the solver's memory does not fit in the heap ({@link #requireMemory})
   * @throws org.largecat.train.TrainingDivergedException when the objective or its gradient becomes
   *     NaN or infinite; the model is then left as it was
   */
  public static FullBatchRun train(
      Dataset data, LinearModel model, FullBatchSpec options, Kernels kernels, Progress progress) {
    Objects.requireNonNull(progress, "progress");
    if (model.link() != Link.SOFTMAX) {
      throw new IllegalArgumentException("exact-softmax fits a SOFTMAX model, not " + model.link());
    }
    model.requireShapeOf(data);
    requireMemory(data, options);
    long start = System.nanoTime();
    double[] theta = SoftmaxObjective.parametersOf(model);
    if (isZero(model)) {
      startAtClassFrequencies(data, theta);
    }
    try (SoftmaxObjective objective =
        new SoftmaxObjective(data, options.priorVariance(), options.threads(), kernels)) {
      LbfgsResult result =
          Lbfgs.minimise(
              objective,
              theta,
              options.lbfgs(),
              (iteration, evaluations, value, gradientNorm, relativeChange, seconds) ->
                  progress.iteration(
                      iteration, evaluations, -value, gradientNorm, relativeChange, seconds));
      SoftmaxObjective.copyInto(theta, model);
      double saved = -objective.value(SoftmaxObjective.parametersOf(model));
      return new FullBatchRun(
          result.iterations(),
          result.evaluations() + 1,
          (System.nanoTime() - start) * 1e-9,
          saved,
          result.gradientNorm(),
          result.relativeChange(),
          stop(result.outcome()),
          result.outcome());
    }
  }

  /**
   * Multiply-adds of the passes {@link #secondsPerPass} times: a few hundredths of a second each,
   * little beside the fit it helps choose.
   */
  static final double TIMED_MULTIPLY_ADDS = 2e8;

  /**
   * The seconds a pass of the objective and its gradient over all of {@code data} takes here on
   * {@code threads} threads: timed on about {@link #TIMED_MULTIPLY_ADDS} multiply-adds of evenly
   * spaced rows (at least a block for each thread), the fastest of three passes (the first warms
   * up), scaled to every row.
   */
  public static double secondsPerPass(Dataset data, int threads, Kernels kernels) {
    int rows = data.rows();
    double perRow = 2.0 * data.features().storedValues() / rows * data.classes();
    long wanted =
        Math.max(
            (long) (TIMED_MULTIPLY_ADDS / Math.max(perRow, 1)),
            (long) threads * SoftmaxObjective.BLOCK_ROWS);
    int timed = (int) Math.min(rows, wanted);
    int[] picked = new int[timed];
    for (int i = 0; i < timed; i++) {
      picked[i] = (int) ((long) i * rows / timed);
    }
    Dataset subset = timed == rows ? data : data.subset(picked);
    double fastest = Double.POSITIVE_INFINITY;
    try (SoftmaxObjective objective = new SoftmaxObjective(subset, 0, threads, kernels)) {
      double[] theta = new double[objective.parameters()];
      double[] gradient = new double[theta.length];
      for (int pass = 0; pass < 3; pass++) {
        long start = System.nanoTime();
        objective.valueAndGradient(theta, gradient);
        fastest = Math.min(fastest, (System.nanoTime() - start) * 1e-9);
      }
    }
    return fastest * rows / timed;
  }

  private static boolean isZero(LinearModel model) {
    for (float w : model.weights()) {
      if (w != 0) {
        return false;
      }
    }
    for (double b : model.biases()) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * θ's biases for a model started from zero: the log class frequencies, smoothed by half an
   * example a class and centred (the shift a softmax does not see, chosen for the smallest norm).
   * They are the optimum of the model without features, where all-zero biases leave the first
   * iterations to find them, and the gradient at zero is dominated by them.
   */
  private static void startAtClassFrequencies(Dataset data, double[] theta) {
    int[] counts = data.classCounts();
    int biasRow = data.columns() * counts.length;
    double mean = 0;
    for (int count : counts) {
      mean += Math.log(count + 0.5);
    }
    mean /= counts.length;
    for (int k = 0; k < counts.length; k++) {
      theta[biasRow + k] = Math.log(counts[k] + 0.5) - mean;
    }
  }

  private static TrainingRun.Stop stop(LbfgsResult.Outcome outcome) {
    return switch (outcome) {
      case GRADIENT_TOLERANCE, RELATIVE_TOLERANCE, NOISE_FLOOR -> TrainingRun.Stop.CONVERGED;
      case MAX_ITERATIONS, MAX_EVALUATIONS -> TrainingRun.Stop.MAX_EPOCHS;
      case MAX_SECONDS -> TrainingRun.Stop.MAX_SECONDS;
      case NO_PROGRESS -> TrainingRun.Stop.NO_PROGRESS;
    };
  }

  /**
   * The bytes a run with the default settings needs besides the data and the model: the L-BFGS
   * state of (2m + 6) vectors of (D + 1) K doubles, m = {@link FullBatchSpec#history}, the
   * objective's partial gradients (at most {@value SoftmaxObjective#MOST_PARTIAL_SUMS} − 1 more
   * such vectors) and each thread's block buffers; saturating at {@link Long#MAX_VALUE}.
   */
  public static long bytesNeeded(int rows, int columns, int classes, boolean sparse, int threads) {
    return bytesNeeded(
        rows, columns, classes, sparse, threads, FullBatchSpec.history(columns, classes));
  }

  private static long bytesNeeded(
      int rows, int columns, int classes, boolean sparse, int threads, int history) {
    double parameters = (columns + 1.0) * classes;
    double bytes =
        Double.BYTES * (2.0 * history + 6) * parameters
            + SoftmaxObjective.bytesNeeded(rows, columns, classes, sparse, threads);
    return bytes >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) bytes;
  }

  /** Refuses a run whose {@link #bytesNeeded} exceed the heap, saying what it needs. */
  public static void requireMemory(Dataset data, FullBatchSpec options) {
    SoftmaxObjective.parameterCount(data.columns(), data.classes());
    MemoryBudget.require(
        bytesNeeded(
            data.rows(),
            data.columns(),
            data.classes(),
            data.features() instanceof SparseFeatures,
            options.threads(),
            options.lbfgs().history()),
        "exact-softmax's L-BFGS state (m = "
            + options.lbfgs().history()
            + " pairs of (D + 1) × K = "
            + (data.columns() + 1L)
            + " × "
            + data.classes()
            + " doubles) and partial gradients",
        "give the JVM more (LARGECAT_JAVA_OPTS=-Xmx...) or use --method ar-softmax, whose memory is"
            + " the model's");
  }
}
