package org.largecat.eval;

import org.largecat.kernel.Kernels;
import org.largecat.kernel.VectorOps;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;

/**
 * One row's K float utilities as {@link Predictor#forEachScoreRow} hands them on, valid until the
 * consumer returns: every one finite (checked on arrival), with their largest and the largest of
 * each run of {@value Predictor#RUN} classes, which lets a label's rank skip the runs that hold
 * nothing above it.
 */
public final class ScoreRow {
  private final Predictor predictor;
  private final ScoreModel model;
  private final Kernels kernels;
  private float[] scores;
  private int offset;
  private float max;
  private float[] runMax = new float[0];

  ScoreRow(Predictor predictor, ScoreModel model, Kernels kernels) {
    this.predictor = predictor;
    this.model = model;
    this.kernels = kernels;
  }

  /** The array that holds the row, from {@link #offset()}. */
  public float[] scores() {
    return scores;
  }

  /** Where the row starts in {@link #scores()}. */
  public int offset() {
    return offset;
  }

  /** The largest utility. */
  public float max() {
    return max;
  }

  /**
   * Takes scores[at, at + K) as the row of {@code example}: one pass without a branch takes each
   * run's largest and the smallest, where a NaN makes both NaN, +Inf the largest and -Inf the
   * smallest; only then is the first offending class looked for, for the message.
   *
   * @throws NonFiniteScoreException if a score is NaN or infinite
   */
  void set(float[] scores, int at, long example) {
    predictor.example = example;
    int classes = model.classes();
    int runs = (classes + Predictor.RUN - 1) / Predictor.RUN;
    if (runMax.length != runs) {
      runMax = new float[runs];
    }
    float highest = Float.NEGATIVE_INFINITY;
    float lowest = Float.POSITIVE_INFINITY;
    for (int run = 0; run < runs; run++) {
      float runHighest = Float.NEGATIVE_INFINITY;
      for (int k = at + run * Predictor.RUN;
          k < at + Math.min(classes, (run + 1) * Predictor.RUN);
          k++) {
        runHighest = Math.max(runHighest, scores[k]);
        lowest = Math.min(lowest, scores[k]);
      }
      runMax[run] = runHighest;
      highest = Math.max(highest, runHighest);
    }
    if (!Float.isFinite(highest) || !Float.isFinite(lowest)) {
      for (int k = 0; k < classes; k++) {
        if (!Float.isFinite(scores[at + k])) {
          throw Predictor.nonFinite(example, k, scores[at + k]);
        }
      }
    }
    this.scores = scores;
    this.offset = at;
    this.max = highest;
  }

  /** psi[k] = the utility of class k, in double. */
  void widen(double[] psi) {
    for (int k = 0; k < psi.length; k++) {
      psi[k] = scores[offset + k];
    }
  }

  /**
   * log p(y | ψ). The softmax's is (ψ_y − max) − log Σ_k e^{ψ_k − max} in double, each term the
   * float exponential of the float difference ({@link VectorOps#sumExp(int, float[], int, float)});
   * probit and logistic take their quadrature on the utilities widened to double.
   *
   * @throws IllegalArgumentException if y is not a class
   * @throws ArithmeticException naming the example when the utilities are outside the quadrature's
   *     domain
   */
  public double logProbability(int y) {
    int classes = model.classes();
    requireClass(y);
    if (model.link() == Link.SOFTMAX) {
      double sum = kernels.vectorOps().sumExp(classes, scores, offset, max);
      return ((double) scores[offset + y] - max) - Math.log(sum);
    }
    double[] psi = predictor.rowPsi();
    widen(psi);
    return predictor.logProbability(psi, y);
  }

  /**
   * min(rank, limit) for the label y, the rank as in {@link ClassRanks#rank(double[], int)}: the
   * classes with a larger utility, or an equal one at a smaller index. Only the runs whose largest
   * reaches y's utility are counted in, and the count stops at {@code limit}.
   *
   * @throws IllegalArgumentException if y is not a class
   */
  public int rank(int y, int limit) {
    int classes = model.classes();
    requireClass(y);
    float target = scores[offset + y];
    int above = 0;
    for (int run = 0; run < runMax.length; run++) {
      if (runMax[run] < target) {
        continue;
      }
      for (int k = run * Predictor.RUN; k < Math.min(classes, (run + 1) * Predictor.RUN); k++) {
        float score = scores[offset + k];
        if ((score > target || (score == target && k < y)) && ++above >= limit) {
          return limit;
        }
      }
    }
    return above;
  }

  private void requireClass(int y) {
    if (y < 0 || y >= model.classes()) {
      throw Predictor.shapeError(
          model, "label " + y + " is not a class in [0, K = " + model.classes() + ")");
    }
  }
}
