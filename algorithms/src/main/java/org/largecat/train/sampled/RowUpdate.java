package org.largecat.train.sampled;

import org.largecat.kernel.VectorOps;
import org.largecat.train.SampledSpec;
import org.largecat.train.StepSizeSchedule;

/**
 * One iteration's step of the sampled trainers applied to rows of weights (the {@link
 * VectorOps#rowStep} kernel), a coordinate or a bias, given its summed batch gradient: plain SGD,
 * or the adaptive step, whose s is decayed lazily for the iterations in which the row had no
 * gradient, which gives exactly the dense schedule; with a Gaussian prior (MAP) the prior's
 * gradient −w/σ² (on the objective's scale) is added when the row is updated. {@link #prepare} sets
 * the iteration's rate, gradient scale and prior precision before the update phase; the threads
 * then only read them.
 */
final class RowUpdate {
  /**
   * Rows a thread's phase two steps in one kernel call: enough for the native kernel to request
   * rows well ahead of the one it steps, few enough that their gradients stay in the first-level
   * cache at the model widths.
   */
  static final int BLOCK = 32;

  private final SampledSpec options;
  private final int rows;
  private final boolean adaptive;
  private final double smoothing;
  private final double[] keptPowers = new double[64];
  private int iteration;
  private float rate;
  private float scale;
  private float precision;

  /** For {@code options}' step on a training set of {@code rows} examples. */
  RowUpdate(SampledSpec options, int rows) {
    this.options = options;
    this.rows = rows;
    this.adaptive = options.stepSize() instanceof StepSizeSchedule.Adaptive;
    this.smoothing = options.stepSize() instanceof StepSizeSchedule.Adaptive a ? a.smoothing() : 1;
    for (int i = 0; i < keptPowers.length; i++) {
      keptPowers[i] = Math.pow(1 - smoothing, i);
    }
  }

  /** Whether the step keeps s, the running mean of squared gradients. */
  boolean adaptive() {
    return adaptive;
  }

  /**
   * Sets the step of {@code iteration}, in epoch {@code epoch} (from 1), of a batch of {@code
   * batchSize}, with the step reductions {@code stepScale}.
   */
  void prepare(int iteration, long epoch, int batchSize, double stepScale) {
    this.iteration = iteration;
    switch (options.stepSize()) {
      case StepSizeSchedule.Adaptive a -> {
        rate = (float) (stepScale * a.rate(iteration));
        scale = (float) (rows / (double) batchSize);
      }
      case StepSizeSchedule.Sgd sgd -> {
        rate = (float) (stepScale * sgd.rate(epoch - 1));
        scale = (float) (1.0 / batchSize);
      }
    }
    precision =
        options.priorVariance() == 0
            ? 0
            : (float) (scale * batchSize / rows / options.priorVariance());
  }

  /**
   * Sets fresh[at] and keep[at], the weights of the new squared gradient and of the old s in the
   * step of a row last updated at iteration {@code last}.
   */
  void weigh(int last, float[] fresh, float[] keep, int at) {
    fresh[at] = (float) freshWeight(last);
    keep[at] = (float) keptWeight(last);
  }

  /**
   * Steps rows[rowsOff, rowsOff + count) of {@code table}, rows of width d with their s in
   * tableSquares (null for SGD), by their summed gradients g[gOff + i·d, + d), which it clears, and
   * the weights {@link #weigh} set in fresh and keep from 0: one {@link VectorOps#rowStep} call.
   */
  void step(
      VectorOps ops,
      float[] table,
      float[] tableSquares,
      int d,
      int[] rows,
      int rowsOff,
      int count,
      float[] g,
      int gOff,
      float[] fresh,
      float[] keep) {
    ops.rowStep(
        table,
        tableSquares,
        table.length / d,
        d,
        rows,
        rowsOff,
        count,
        g,
        gOff,
        fresh,
        keep,
        0,
        rate,
        scale,
        precision);
  }

  /**
   * Applies gradient g of one coordinate, weights[c], last updated at iteration {@code last}, with
   * its s in squares[c] (squares null for SGD).
   */
  void coordinate(float[] weights, float[] squares, int c, float g, int last) {
    float gc = g * scale - precision * weights[c];
    if (squares == null) {
      weights[c] += rate * gc;
    } else {
      float sc = (float) (freshWeight(last) * gc * gc + keptWeight(last) * squares[c]);
      squares[c] = sc;
      weights[c] += rate * gc / (1 + (float) Math.sqrt(sc));
    }
  }

  /** Applies the gradient of bias k, last updated at iteration {@code last}, in double. */
  void bias(double[] biases, double[] biasSquares, int k, double gradient, int last) {
    double g = gradient * scale - (double) precision * biases[k];
    if (biasSquares == null) {
      biases[k] += (double) rate * g;
      return;
    }
    double s = freshWeight(last) * g * g + keptWeight(last) * biasSquares[k];
    biasSquares[k] = s;
    biases[k] += (double) rate * g / (1 + Math.sqrt(s));
  }

  /** The weight of g² in s: 1 at a coordinate's first gradient (s = g²), else the smoothing. */
  private double freshWeight(int last) {
    return last == 0 ? 1 : smoothing;
  }

  /**
   * The weight of the previous s: (1 − smoothing)^(t − last), the decays of the idle iterations
   * folded in.
   */
  private double keptWeight(int last) {
    if (last == 0) {
      return 0;
    }
    int idle = iteration - last;
    return idle < keptPowers.length ? keptPowers[idle] : Math.pow(keptPowers[1], idle);
  }
}
