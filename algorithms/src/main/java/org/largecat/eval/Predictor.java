package org.largecat.eval;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.VectorOps;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;

/**
 * The utilities and class log-probabilities of a {@link ScoreModel}: all K utilities ψ = W x + b
 * ({@link LinearModel}) or ψ = U h + b with h = Σ_j x_j v_j ({@link FactorizedModel}), then the
 * link's log-probabilities — closed form for the softmax (the log-normaliser summed in double),
 * {@link UtilityModelQuadrature} for probit and logistic.
 *
 * <p>One example ({@link #utilities(Features, int, long, double[])} and the array forms): one
 * gather-dot of x (or h) against every row of W (or U), summed in double, plus the double biases.
 * Many ({@link #forEachRow}, {@link #forEachScoreRow}): blocks of {@link #blockRows} consecutive
 * rows, each by float gemms (X_B Wᵀ + 1 bᵀ, or H = X_B V then H Uᵀ + 1 bᵀ: the block starts as the
 * biases rounded to float and the gemm adds to it), computed and used within that one call. Nothing
 * is remembered between calls, so a buffer (or a bias) changed between calls is scored afresh.
 *
 * <p>Shapes are checked at each public entry (D columns, K utilities) with messages that name the
 * model's K and D. One per thread: its scratch is not shared ({@code org.largecat.fit.Classifier}
 * keeps one per thread).
 */
public final class Predictor {
  /**
   * The most rows a block holds; fewer when K is so large that their float utilities would pass
   * {@link #BLOCK_CELLS}.
   */
  static final int BLOCK = 256;

  /** The float utilities one block may hold, 16 MB. */
  private static final int BLOCK_CELLS = 1 << 22;

  /**
   * A linear model's sparse rows are copied into a dense block for the gemm when they store at
   * least one value in this many columns; sparser rows go by one gather-dot each, whose cost is
   * their stored values, not D (docs/performance.md has the measurements that set it).
   */
  private static final int DENSE_ENOUGH = 100;

  /** What {@link #forEachRow} hands each row's utilities to. */
  @FunctionalInterface
  public interface RowConsumer {
    /** {@code psi} holds row {@code row}'s K utilities until this returns. */
    void accept(int row, double[] psi);
  }

  /** What {@link #forEachScoreRow} hands each row's float utilities to. */
  @FunctionalInterface
  public interface ScoreRowConsumer {
    /** {@code scores} holds row {@code row}'s K utilities until this returns. */
    void accept(int row, ScoreRow scores);
  }

  /** Classes in a run of {@link ScoreRow}, whose largest score it keeps. */
  static final int RUN = 256;

  private final ScoreModel model;
  private final Kernels kernels;
  private final int[] allClasses;
  private final UtilityModelQuadrature quadrature;

  /** One example's h, r wide (factorized models). */
  private final float[] embedding;

  /** The utilities of a block of rows, by gemm. */
  private final BlockScores blocks;

  /** A row's utilities rounded to float, where they were computed in double. */
  private float[] rowScores = new float[0];

  /** The row {@link #forEachScoreRow} hands on. */
  private final ScoreRow scoreRow;

  /** The utilities {@link #forEachRow} hands on. */
  private double[] rowPsi = new double[0];

  /**
   * The 1-based number of the example whose utilities were computed last (0: none or not numbered),
   * for the messages.
   */
  long example;

  public Predictor(ScoreModel model, Kernels kernels) {
    this.model = Objects.requireNonNull(model, "model");
    this.kernels = Objects.requireNonNull(kernels, "kernels");
    this.quadrature =
        model.link() == Link.SOFTMAX
            ? null
            : new UtilityModelQuadrature(
                kernels, NoiseDistribution.of(model.link()), model.classes());
    this.allClasses = new int[model.classes()];
    for (int k = 0; k < allClasses.length; k++) {
      allClasses[k] = k;
    }
    this.embedding = new float[model instanceof FactorizedModel f ? f.rank() : 0];
    this.blocks = new BlockScores(model, kernels);
    this.scoreRow = new ScoreRow(this, model, kernels);
  }

  /** The model this scores. */
  public ScoreModel model() {
    return model;
  }

  /**
   * Rows of a block of {@link #forEachRow} for K classes: a power of two, at most {@value #BLOCK},
   * whose float utilities fit 16 MB. A power of two divides every power-of-two cut of a data set of
   * at least {@value #BLOCK} rows, so such cuts keep the blocks.
   */
  public static int blockRows(int classes) {
    int rows = BLOCK;
    while (rows > 1 && (long) rows * classes > BLOCK_CELLS) {
      rows /= 2;
    }
    return rows;
  }

  /**
   * psi[k] = ψ_k(x_row) for every class: w_k · x_row + b_k, or u_k · h(x_row) + b_k.
   *
   * @throws IllegalArgumentException if x does not have the model's D columns or psi its K elements
   * @throws NonFiniteScoreException if a score is NaN or beyond float range (the model or the
   *     features overflow)
   */
  public void utilities(Features x, int row, double[] psi) {
    utilities(x, row, row + 1L, psi);
  }

  /**
   * As {@link #utilities(Features, int, double[])}, where {@code example} is the row's 1-based
   * number in its file, which an error names (0: none).
   */
  public void utilities(Features x, int row, long example, double[] psi) {
    requireColumns(x.columns(), "the features have");
    Objects.checkIndex(row, x.rows());
    requireClasses(psi, "psi");
    switch (x) {
      case DenseFeatures d -> dense(d.values(), row * model.columns(), psi);
      case SparseFeatures s ->
          sparse(s.indices(), s.values(), s.indptr()[row], s.rowLength(row), psi);
    }
    addBiases(psi, example);
  }

  /**
   * psi = ψ(x) for the dense example x[xOff, xOff + D); {@code example} as in {@link
   * #utilities(Features, int, long, double[])}.
   */
  public void utilities(float[] x, int xOff, long example, double[] psi) {
    Objects.checkFromIndexSize(xOff, model.columns(), x.length);
    requireClasses(psi, "psi");
    dense(x, xOff, psi);
    addBiases(psi, example);
  }

  /**
   * psi = ψ(x) for the sparse example whose values[off + i] sits in column indices[off + i], i <
   * count, the columns strictly increasing and in [0, D).
   *
   * @throws IllegalArgumentException naming the first column out of range or out of order
   */
  public void utilities(
      int[] indices, float[] values, int off, int count, long example, double[] psi) {
    Objects.checkFromIndexSize(off, count, indices.length);
    Objects.checkFromIndexSize(off, count, values.length);
    requireClasses(psi, "psi");
    for (int i = off; i < off + count; i++) {
      if (indices[i] < 0 || indices[i] >= model.columns()) {
        throw shapeError(
            "indices["
                + (i - off)
                + "] = "
                + indices[i]
                + " is not a feature in [0, D = "
                + model.columns()
                + ")");
      }
      if (i > off && indices[i] <= indices[i - 1]) {
        throw shapeError(
            "indices["
                + (i - off)
                + "] = "
                + indices[i]
                + " follows "
                + indices[i - 1]
                + "; give the columns in increasing order, each once (add up repeated ones)");
      }
    }
    sparse(indices, values, off, count, psi);
    addBiases(psi, example);
  }

  /** psi = the utilities of the dense x[xOff, xOff + D) without the biases. */
  private void dense(float[] x, int xOff, double[] psi) {
    VectorOps ops = kernels.vectorOps();
    int columns = model.columns();
    switch (model) {
      case LinearModel linear -> {
        if (columns == 0) {
          Arrays.fill(psi, 0.0);
        } else {
          ops.gatherDot(
              linear.weights(), psi.length, columns, allClasses, 0, psi.length, x, xOff, psi, 0);
        }
      }
      case FactorizedModel f -> {
        Arrays.fill(embedding, 0f);
        for (int j = 0; j < columns; j++) {
          if (x[xOff + j] != 0) {
            ops.axpy(embedding.length, x[xOff + j], f.inputs(), j * embedding.length, embedding, 0);
          }
        }
        outputs(f, psi);
      }
    }
  }

  /** psi = the utilities of a sparse row (checked) without the biases. */
  private void sparse(int[] indices, float[] values, int off, int count, double[] psi) {
    VectorOps ops = kernels.vectorOps();
    int columns = model.columns();
    switch (model) {
      case LinearModel linear -> {
        if (columns == 0) {
          Arrays.fill(psi, 0.0);
        } else {
          ops.gatherDotSparse(
              linear.weights(),
              psi.length,
              columns,
              allClasses,
              0,
              psi.length,
              indices,
              values,
              off,
              count,
              psi,
              0);
        }
      }
      case FactorizedModel f -> {
        Arrays.fill(embedding, 0f);
        if (count > 0) {
          ops.gatherAxpy(
              f.inputs(),
              columns,
              embedding.length,
              indices,
              off,
              count,
              values,
              off,
              embedding,
              0);
        }
        outputs(f, psi);
      }
    }
  }

  /** psi[k] = u_k · h for the example's h in {@link #embedding}. */
  private void outputs(FactorizedModel f, double[] psi) {
    kernels
        .vectorOps()
        .gatherDot(
            f.outputs(), psi.length, f.rank(), allClasses, 0, psi.length, embedding, 0, psi, 0);
  }

  /**
   * Hands the utilities of rows [from, to) of x to {@code each}, in order: {@link #blockRows} rows
   * at a time by gemm, except a linear model's very sparse rows, which go one gather-dot each. Row
   * {@code from} is example {@code firstExample} (1-based; 0: not numbered) for the messages. The
   * rows of a block start at from + a multiple of {@link #blockRows}.
   *
   * @throws IllegalArgumentException if x does not have the model's D columns
   * @throws NonFiniteScoreException naming the first example with a NaN score or one beyond float
   *     range
   */
  public void forEachRow(Features x, int from, int to, long firstExample, RowConsumer each) {
    requireColumns(x.columns(), "the features have");
    Objects.checkFromToIndex(from, to, x.rows());
    int classes = model.classes();
    double[] psi = rowPsi();
    if (model instanceof LinearModel && !blocked(x)) {
      for (int row = from; row < to; row++) {
        utilities(x, row, number(firstExample, row - from), psi);
        each.accept(row, psi);
      }
      return;
    }
    forEachBlockRow(
        x,
        from,
        to,
        firstExample,
        (row, scores) -> {
          scores.widen(psi);
          each.accept(row, psi);
        });
  }

  /**
   * As {@link #forEachRow}, but each row's utilities stay float ({@link ScoreRow}): a block's rows
   * as the gemm left them (the biases added in float), a very sparse row of a linear model as its
   * double utilities rounded to float. Cheaper per row than doubles when the consumer needs only
   * {@link ScoreRow#logProbability} and {@link ScoreRow#rank}.
   *
   * @throws IllegalArgumentException if x does not have the model's D columns
   * @throws NonFiniteScoreException naming the first example with a NaN or infinite score (one that
   *     overflows float included)
   */
  public void forEachScoreRow(
      Features x, int from, int to, long firstExample, ScoreRowConsumer each) {
    requireColumns(x.columns(), "the features have");
    Objects.checkFromToIndex(from, to, x.rows());
    if (model instanceof LinearModel && !blocked(x)) {
      int classes = model.classes();
      double[] psi = rowPsi();
      if (rowScores.length != classes) {
        rowScores = new float[classes];
      }
      for (int row = from; row < to; row++) {
        long number = number(firstExample, row - from);
        utilities(x, row, number, psi);
        for (int k = 0; k < classes; k++) {
          rowScores[k] = (float) psi[k];
        }
        scoreRow.set(rowScores, 0, number);
        each.accept(row, scoreRow);
      }
      return;
    }
    forEachBlockRow(x, from, to, firstExample, each);
  }

  /** Rows [from, to) of x by blocks, each row's float utilities checked finite and handed on. */
  private void forEachBlockRow(
      Features x, int from, int to, long firstExample, ScoreRowConsumer each) {
    int classes = model.classes();
    int block = blockRows(classes);
    for (int first = from; first < to; first += block) {
      int rows = Math.min(block, to - first);
      float[] scores = blocks.score(x, first, rows);
      for (int i = 0; i < rows; i++) {
        int offset = i * classes;
        scoreRow.set(scores, offset, number(firstExample, first + i - from));
        each.accept(first + i, scoreRow);
      }
    }
  }

  double[] rowPsi() {
    if (rowPsi.length != model.classes()) {
      rowPsi = new double[model.classes()];
    }
    return rowPsi;
  }

  private static long number(long first, int offset) {
    return first > 0 ? first + offset : 0;
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
   * psi[k] += b_k, then every result checked within float range (in a pass of its own, so that the
   * sums' loop has no branch): a score a block's float gemm would overflow is refused here too, so
   * that a row is refused or scored alike whichever way it is computed.
   */
  private void addBiases(double[] psi, long example) {
    this.example = example;
    double[] b = model.biases();
    for (int k = 0; k < psi.length; k++) {
      psi[k] += b[k];
    }
    for (int k = 0; k < psi.length; k++) {
      if (!(Math.abs(psi[k]) <= Float.MAX_VALUE)) {
        throw nonFinite(example, k, psi[k]);
      }
    }
  }

  static NonFiniteScoreException nonFinite(long example, int k, double score) {
    return new NonFiniteScoreException(
        (example > 0 ? "example " + example + ": " : "")
            + "the score of class "
            + k
            + " is "
            + score
            + "; scores must lie within float range (±3.4e38): the model's weights or the"
            + " example's features are too large (or not finite)");
  }

  /**
   * log p(y | ψ) under the model's link.
   *
   * @throws IllegalArgumentException if psi does not hold K utilities or y is not a class
   * @throws ArithmeticException naming the example when the utilities are outside the quadrature's
   *     domain
   */
  public double logProbability(double[] psi, int y) {
    requireClasses(psi, "psi");
    if (y < 0 || y >= psi.length) {
      throw shapeError("label " + y + " is not a class in [0, K = " + psi.length + ")");
    }
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
   * @throws IllegalArgumentException if psi or out does not hold K values
   * @throws ArithmeticException naming the example when the utilities are outside the quadrature's
   *     domain
   */
  public void logProbabilities(double[] psi, double[] out) {
    requireClasses(psi, "psi");
    requireClasses(out, "out");
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

  private void requireColumns(int given, String what) {
    if (given != model.columns()) {
      throw shapeError(
          what
              + " "
              + given
              + " columns; give exactly D = "
              + model.columns()
              + " features per example, in the order the model was trained on");
    }
  }

  private void requireClasses(double[] values, String name) {
    if (values.length != model.classes()) {
      throw shapeError(
          name
              + " has "
              + values.length
              + " elements; it needs exactly K = "
              + model.classes()
              + ", one per class");
    }
  }

  /** An IllegalArgumentException whose message starts with the model's shape. */
  private IllegalArgumentException shapeError(String problem) {
    return shapeError(model, problem);
  }

  /** An IllegalArgumentException whose message starts with {@code model}'s shape. */
  public static IllegalArgumentException shapeError(ScoreModel model, String problem) {
    return new IllegalArgumentException(
        "model of K = "
            + model.classes()
            + " classes and D = "
            + model.columns()
            + " features: "
            + problem);
  }
}
