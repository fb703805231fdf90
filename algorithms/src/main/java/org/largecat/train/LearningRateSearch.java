package org.largecat.train;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.largecat.data.Dataset;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;

/**
 * The learning-rate tuning of unbiased-scalable-softmax §4.1: every initial learning rate of the
 * grid 10^{0, ±1, ±2, ±3} trains for a number of epochs (50 in the paper) on a seeded fraction
 * (10%) of the training set, and the one with the lowest training log-loss on that fraction wins. A
 * run that overflows ({@link TrainingDivergedException}) scores +∞.
 */
public final class LearningRateSearch {
  /** The grid of §4.1. */
  public static final double[] GRID = {1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3};

  private LearningRateSearch() {}

  /** A model and the trainer that fits it. */
  public record Run(LinearModel model, Trainer trainer) {}

  /** Makes the run of one learning rate on the tuning subset. */
  public interface RunFactory {
    Run create(Dataset subset, double learningRate);
  }

  /**
   * The outcome: the grid, each rate's training log-loss on the subset (+∞ when it overflowed), the
   * best rate, and the size of the subset.
   */
  public record Result(double[] learningRates, double[] logLoss, double best, int rows) {}

  /** Runs the search over {@link #GRID}. */
  public static Result search(
      Dataset data,
      double fraction,
      int epochs,
      long seed,
      Kernels kernels,
      int threads,
      RunFactory factory) {
    if (!(fraction > 0 && fraction <= 1) || epochs < 1) {
      throw new IllegalArgumentException(
          "fraction " + fraction + " must be in (0, 1] and epochs " + epochs + " >= 1");
    }
    Dataset subset = data.subset(sample(data.rows(), fraction, seed));
    double[] logLoss = new double[GRID.length];
    double best = Double.NaN;
    double bestLoss = Double.POSITIVE_INFINITY;
    for (int g = 0; g < GRID.length; g++) {
      Run run = factory.create(subset, GRID[g]);
      try (Trainer trainer = run.trainer()) {
        for (long t = (long) epochs * trainer.iterationsPerEpoch(); t > 0; t--) {
          trainer.step();
        }
      } catch (TrainingDivergedException overflow) {
        logLoss[g] = Double.POSITIVE_INFINITY;
        continue;
      }
      double loss =
          -Evaluation.evaluate(run.model(), subset, kernels, 1, threads).meanLogLikelihood();
      logLoss[g] = Double.isNaN(loss) ? Double.POSITIVE_INFINITY : loss;
      if (logLoss[g] < bestLoss) {
        bestLoss = logLoss[g];
        best = GRID[g];
      }
    }
    return new Result(GRID.clone(), logLoss, best, subset.rows());
  }

  /** A seeded sample of ⌈fraction·N⌉ distinct rows, in increasing order. */
  static int[] sample(int rows, double fraction, long seed) {
    int size = (int) Math.ceil(fraction * rows);
    int[] order = new int[rows];
    SplittableRandom random = new SplittableRandom(seed ^ 0x3C6EF372FE94F82BL);
    for (int i = 0; i < rows; i++) {
      int j = random.nextInt(i + 1);
      order[i] = order[j];
      order[j] = i;
    }
    int[] picked = Arrays.copyOf(order, size);
    Arrays.sort(picked);
    return picked;
  }
}
