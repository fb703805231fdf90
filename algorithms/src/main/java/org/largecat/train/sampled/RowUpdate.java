package org.largecat.train.sampled;

import org.largecat.train.StepSizeSchedule;
import org.largecat.train.TrainingOptions;

/**
 * One iteration's step of the sampled trainers applied to a row of weights, or a bias, given its
 * summed batch gradient: plain SGD, or the adaptive step, whose s is decayed lazily for the
 * iterations in which the row had no gradient, which gives exactly the dense schedule; with a
 * Gaussian prior (MAP) the prior's gradient −w/σ² (on the objective's scale) is added when the row
 * is updated. {@link #prepare} sets the iteration's rate, gradient scale and prior precision before
 * the update phase; the threads then only read them.
 */
final class RowUpdate {
  /** Random rows a thread's phase two loads together, so that their cache misses overlap. */
  static final int GROUP = 4;

  private final TrainingOptions options;
  private final int rows;
  private final boolean adaptive;
  private final double smoothing;
  private final double[] keptPowers = new double[64];
  private int iteration;
  private float rate;
  private float scale;
  private float precision;

  /** For {@code options}' step on a training set of {@code rows} examples. */
  RowUpdate(TrainingOptions options, int rows) {
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
   * Applies the gradient g[0, length) to table[base, base + length), last updated at iteration
   * {@code last}, with its s in tableSquares (null for SGD), and clears g: {@link #load}, {@link
   * #step} and {@link #store} of one row.
   */
  void row(
      float[] table,
      float[] tableSquares,
      int base,
      int length,
      int last,
      float[] g,
      float[] w,
      float[] s) {
    load(table, tableSquares, base, length, w, s, 0);
    step(g, w, s, 0, length, last);
    store(table, tableSquares, base, length, w, s, 0);
  }

  /**
   * Copies table[base, base + length) into w[at, at + length) and its s from tableSquares (null for
   * SGD) into s. A caller that loads a group of random rows before stepping any of them has their
   * cache misses overlap, where one row at a time waits for each in turn.
   */
  void load(
      float[] table, float[] tableSquares, int base, int length, float[] w, float[] s, int at) {
    System.arraycopy(table, base, w, at, length);
    if (tableSquares != null) {
      System.arraycopy(tableSquares, base, s, at, length);
    }
  }

  /** Copies a row and its s back from where {@link #load} put them. */
  void store(
      float[] table, float[] tableSquares, int base, int length, float[] w, float[] s, int at) {
    System.arraycopy(w, at, table, base, length);
    if (tableSquares != null) {
      System.arraycopy(s, at, tableSquares, base, length);
    }
  }

  /**
   * Applies the gradient g[at, at + length) to the loaded row w[at, at + length) with its s, last
   * updated at iteration {@code last}, and clears g. The loops are flat float loops over arrays
   * that share one index, which is what the compiler needs to vectorise them (it cannot rule out
   * that g and the table, with different offsets, are one array), hence the copies of {@link
   * #load}.
   */
  void step(float[] g, float[] w, float[] s, int at, int length, int last) {
    int end = at + length;
    if (!adaptive) {
      for (int j = at; j < end; j++) {
        w[j] += rate * (g[j] * scale - precision * w[j]);
        g[j] = 0;
      }
      return;
    }
    float fresh = (float) freshWeight(last);
    float keep = (float) keptWeight(last);
    for (int j = at; j < end; j++) {
      float gj = g[j] * scale - precision * w[j];
      g[j] = 0;
      float sj = fresh * gj * gj + keep * s[j];
      s[j] = sj;
      w[j] += rate * gj / (1 + (float) Math.sqrt(sj));
    }
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
