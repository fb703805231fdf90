package org.largecat.eval;

import java.util.Arrays;
import java.util.Locale;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;

/**
 * The class probabilities of a {@link ScoreModel} for one example at a time: all K utilities ψ = W
 * x + b ({@link LinearModel}) or ψ = U h + b with h = Σ_j x_j v_j ({@link FactorizedModel}), by one
 * float gemm for a block of {@value #BLOCK} consecutive rows, then the link's log-probabilities —
 * closed form for the softmax (the log-normaliser summed in double), {@link UtilityModelQuadrature}
 * for probit and logistic. One per thread; reused.
 */
public final class Predictor {
  /**
   * Rows whose utilities are computed at once: their left operands (the rows of X, or their h(x))
   * are a block, and their utilities one gemm with W or U, which runs at the machine's gemm speed
   * where one gather-dot per row would stream W or U once per example.
   */
  static final int BLOCK = 32;

  /**
   * A linear model's sparse rows are copied into a dense block for the gemm when they store at
   * least one value in this many columns; sparser rows go by one gather-dot each, whose cost is
   * their stored values, not D (docs/performance.md has the measurements that set it).
   */
  private static final int DENSE_ENOUGH = 100;

  private final ScoreModel model;
  private final Kernels kernels;

  /** The block's left operand when it is not x's own storage: H, or sparse rows made dense. */
  private float[] left;

  /** The utilities without the biases of rows [blockFirst, blockFirst + blockRows) of blockOf. */
  private float[] blockScores = new float[0];

  private Features blockOf;
  private int blockFirst;
  private int blockRows;

  private final int[] allClasses;
  private final UtilityModelQuadrature quadrature;

  /**
   * The 1-based number of the example whose utilities were computed last (0: none), for the
   * messages.
   */
  private long example;

  public Predictor(ScoreModel model, Kernels kernels) {
    this.model = model;
    this.left = model instanceof FactorizedModel f ? new float[BLOCK * f.rank()] : new float[0];
    this.kernels = kernels;
    this.quadrature =
        model.link() == Link.SOFTMAX
            ? null
            : new UtilityModelQuadrature(
                kernels, NoiseDistribution.of(model.link()), model.classes());
    this.allClasses = new int[model.classes()];
    for (int k = 0; k < allClasses.length; k++) {
      allClasses[k] = k;
    }
  }

  /**
   * psi[k] = ψ_k(x_row) for every class: w_k · x_row + b_k, or u_k · h(x_row) + b_k.
   *
   * @throws NonFiniteScoreException if a score is NaN or infinite (the model or the features
   *     overflow)
   */
  public void utilities(Features x, int row, double[] psi) {
    utilities(x, row, row + 1L, psi);
  }

  /**
   * As {@link #utilities(Features, int, double[])}, where {@code example} is the row's 1-based
   * number in its file (the row of a block is not), which an error names. The block holds the rows
   * from {@code row} on when {@code row} is outside the last one.
   */
  public void utilities(Features x, int row, long example, double[] psi) {
    this.example = example;
    if (model instanceof LinearModel linear && !blocked(x)) {
      x.gatherDot(
          kernels.vectorOps(),
          linear.weights(),
          linear.classes(),
          row,
          allClasses,
          0,
          allClasses.length,
          psi,
          0);
    } else {
      if (x != blockOf || row < blockFirst || row >= blockFirst + blockRows) {
        scoreBlock(x, row);
      }
      int at = (row - blockFirst) * psi.length;
      for (int k = 0; k < psi.length; k++) {
        psi[k] = blockScores[at + k];
      }
    }
    double[] b = model.biases();
    for (int k = 0; k < psi.length; k++) {
      psi[k] += b[k];
      if (!Double.isFinite(psi[k])) {
        throw new NonFiniteScoreException(
            "example "
                + example
                + ": the score of class "
                + k
                + " is "
                + psi[k]
                + "; the model's weights or the example's features are too large (or not finite)");
      }
    }
  }

  /**
   * Whether a linear model scores x's rows by blocks: dense rows, or sparse ones not too sparse.
   */
  private static boolean blocked(Features x) {
    return switch (x) {
      case DenseFeatures d -> true;
      case SparseFeatures s -> s.storedValues() * DENSE_ENOUGH >= (long) s.rows() * s.columns();
    };
  }

  /**
   * The utilities without biases of x's rows from {@code first} on, as many as the block holds: one
   * gemm of the block's left operand (X_B, or H) with W (or U) transposed.
   */
  private void scoreBlock(Features x, int first) {
    blockOf = x;
    blockFirst = first;
    blockRows = Math.min(BLOCK, x.rows() - first);
    int classes = model.classes();
    if (blockScores.length == 0) {
      blockScores = new float[Math.multiplyExact(BLOCK, classes)];
    }
    float[] a = left;
    int aOff = 0;
    int inner;
    float[] right;
    switch (model) {
      case LinearModel linear -> {
        inner = linear.columns();
        right = linear.weights();
        switch (x) {
          case DenseFeatures d -> {
            a = d.values();
            aOff = first * inner;
          }
          case SparseFeatures sparse -> a = denseRows(sparse, first);
        }
      }
      case FactorizedModel f -> {
        inner = f.rank();
        right = f.outputs();
        Arrays.fill(a, 0f);
        for (int i = 0; i < blockRows; i++) {
          x.embed(kernels.vectorOps(), f.inputs(), inner, first + i, a, i * inner);
        }
      }
    }
    if (inner == 0) {
      Arrays.fill(blockScores, 0f);
      return;
    }
    kernels
        .matrixOps()
        .gemm(
            false,
            true,
            blockRows,
            classes,
            inner,
            1f,
            a,
            aOff,
            inner,
            right,
            0,
            inner,
            0f,
            blockScores,
            0,
            classes);
  }

  /** The block's sparse rows written densely into {@link #left} (made D wide when it is not). */
  private float[] denseRows(SparseFeatures x, int first) {
    int columns = x.columns();
    int size = Math.multiplyExact(BLOCK, columns);
    if (left.length < size) {
      left = new float[size];
    }
    Arrays.fill(left, 0, blockRows * columns, 0f);
    int[] indptr = x.indptr();
    for (int i = 0; i < blockRows; i++) {
      for (int j = indptr[first + i]; j < indptr[first + i + 1]; j++) {
        left[i * columns + x.indices()[j]] = x.values()[j];
      }
    }
    return left;
  }

  /**
   * log p(y | ψ) under the model's link.
   *
   * @throws ArithmeticException naming the example when the utilities are outside the quadrature's
   *     domain
   */
  public double logProbability(double[] psi, int y) {
    return switch (model.link()) {
      case SOFTMAX -> psi[y] - kernels.vectorOps().logSumExp(psi.length, psi, 0);
      case PROBIT, LOGISTIC -> {
        try {
          yield quadrature.logProbability(psi, 0, psi.length, y);
        } catch (ArithmeticException e) {
          throw outsideDomain(e, psi);
        }
      }
    };
  }

  /**
   * out[k] = log p(k | ψ) for every class.
   *
   * @throws ArithmeticException naming the example when the utilities are outside the quadrature's
   *     domain
   */
  public void logProbabilities(double[] psi, double[] out) {
    switch (model.link()) {
      case SOFTMAX -> {
        double logZ = kernels.vectorOps().logSumExp(psi.length, psi, 0);
        for (int k = 0; k < psi.length; k++) {
          out[k] = psi[k] - logZ;
        }
      }
      case PROBIT, LOGISTIC -> {
        try {
          quadrature.logProbabilities(psi, 0, psi.length, out, 0);
        } catch (ArithmeticException e) {
          throw outsideDomain(e, psi);
        }
      }
    }
  }

  /** The quadrature's failure {@code e} told with the example, its utilities' span and the fix. */
  private ArithmeticException outsideDomain(ArithmeticException e, double[] psi) {
    int low = 0;
    int high = 0;
    for (int k = 1; k < psi.length; k++) {
      low = psi[k] < psi[low] ? k : low;
      high = psi[k] > psi[high] ? k : high;
    }
    ArithmeticException told =
        new ArithmeticException(
            String.format(
                Locale.ROOT,
                "%sthe %s probabilities cannot be computed: the utilities span %.6g (class %d: %.6g,"
                    + " class %d: %.6g), too wide for the quadrature (%s); the model's weights are"
                    + " too large for its features: retrain with a smaller --learning-rate, a"
                    + " --prior-variance, or scaled features (--scale-max)",
                example > 0 ? "example " + example + ": " : "",
                model.link().name().toLowerCase(Locale.ROOT),
                psi[high] - psi[low],
                high,
                psi[high],
                low,
                psi[low],
                e.getMessage()));
    told.initCause(e);
    return told;
  }

  /** The number of classes ranked above y: larger ψ, or equal ψ at a smaller index. */
  public static int rank(double[] psi, int y) {
    int above = 0;
    double target = psi[y];
    for (int k = 0; k < psi.length; k++) {
      if (psi[k] > target || (psi[k] == target && k < y)) {
        above++;
      }
    }
    return above;
  }

  /**
   * Fills {@code best} with the classes of the largest values, largest first (ties to the smaller
   * index).
   */
  public static void topClasses(double[] values, int[] best) {
    int size = 0;
    for (int k = 0; k < values.length; k++) {
      if (size < best.length || values[k] > values[best[size - 1]]) {
        int at = Math.min(size, best.length - 1);
        while (at > 0 && values[k] > values[best[at - 1]]) {
          best[at] = best[at - 1];
          at--;
        }
        best[at] = k;
        size = Math.min(size + 1, best.length);
      }
    }
  }
}
