package org.largecat.train;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.largecat.data.Dataset;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.ScoreModel;

/**
 * The learning-rate tuning of unbiased-scalable-softmax §4.1: every initial learning rate of the
 * grid 10^{0, ±1, ±2, ±3} trains (50 epochs in the paper, or under a {@link StoppingRule}) on a
 * seeded fraction (10%) of the training set, and the one with the lowest log-loss wins: on that
 * fraction (the paper's {@link Score#TRAINING}) or on as many other rows of the set ({@link
 * Score#HELD_OUT}). A small fraction can be separable where the whole set is not; its training
 * log-loss then rewards the largest rate, which is worse on the whole set. A run that overflows
 * ({@link TrainingDivergedException}) scores +∞.
 */
public final class LearningRateSearch {
  /** The grid of §4.1. */
  public static final double[] GRID = {1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3};

  private LearningRateSearch() {}

  /** Fits a model to the tuning subset at one initial learning rate. */
  public interface RateFit {
    /**
     * @throws TrainingDivergedException when the run overflowed
     */
    ScoreModel fit(Dataset subset, double learningRate);
  }

  /** Where a rate's log-loss is measured. */
  public enum Score {
    /** On the fraction it trained on (the paper). */
    TRAINING,
    /** On rows of the set outside the fraction, as many as it has or as there are. */
    HELD_OUT
  }

  /**
   * The outcome: the grid, each rate's log-loss (+∞ when it overflowed), the best rate, the size of
   * the subset trained on and of the rows scored.
   */
  public record Result(
      double[] learningRates, double[] logLoss, double best, int rows, int scoredRows) {}

  /** Runs the search over {@link #GRID}, each rate's model fitted by {@code fit}. */
  public static Result search(
      Dataset data,
      double fraction,
      Score score,
      long seed,
      Kernels kernels,
      int threads,
      RateFit fit) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException("fraction " + fraction + " must be in (0, 1]");
    }
    int[] order = shuffled(data.rows(), seed);
    int size = (int) Math.ceil(fraction * data.rows());
    Dataset subset = data.subset(sorted(order, 0, size));
    Dataset scored =
        score == Score.TRAINING
            ? subset
            : data.subset(sorted(order, size, Math.min(data.rows(), 2 * size)));
    if (scored.rows() == 0) {
      throw new IllegalArgumentException(
          "fraction "
              + fraction
              + " of "
              + data.rows()
              + " rows leaves none to score on; give a smaller fraction");
    }
    double[] logLoss = new double[GRID.length];
    double best = Double.NaN;
    double bestLoss = Double.POSITIVE_INFINITY;
    for (int g = 0; g < GRID.length; g++) {
      ScoreModel model;
      try {
        model = fit.fit(subset, GRID[g]);
      } catch (TrainingDivergedException overflow) {
        logLoss[g] = Double.POSITIVE_INFINITY;
        continue;
      }
      double loss = -Evaluation.evaluate(model, scored, kernels, 1, threads).meanLogLikelihood();
      logLoss[g] = Double.isNaN(loss) ? Double.POSITIVE_INFINITY : loss;
      if (logLoss[g] < bestLoss) {
        bestLoss = logLoss[g];
        best = GRID[g];
      }
    }
    return new Result(GRID.clone(), logLoss, best, subset.rows(), scored.rows());
  }

  /** A seeded permutation of the rows: its first ⌈fraction·N⌉ are the sample trained on. */
  static int[] shuffled(int rows, long seed) {
    int[] order = new int[rows];
    SplittableRandom random = new SplittableRandom(seed ^ 0x3C6EF372FE94F82BL);
    for (int i = 0; i < rows; i++) {
      int j = random.nextInt(i + 1);
      order[i] = order[j];
      order[j] = i;
    }
    return order;
  }

  /** Entries [from, to) of {@code order}, in increasing order. */
  private static int[] sorted(int[] order, int from, int to) {
    int[] picked = Arrays.copyOfRange(order, from, to);
    Arrays.sort(picked);
    return picked;
  }
}
