package org.largecat.train.fullbatch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.largecat.MemoryBudget;
import org.largecat.Parallel;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;

/**
 * The exact softmax MAP objective of a {@link LinearModel} as a function to minimise: F(θ) = −(1/N)
 * Σ_n log softmax(W x_n + b)_{y_n} + ‖θ‖² / (2 V N), the negated mean log-likelihood and log of a
 * N(0, V) prior on every weight and bias over N (without its constant; none when V = 0).
 *
 * <p>θ is the (D + 1) × K row-major matrix [Wᵀ; bᵀ]: with a 1 appended to every x, the scores of a
 * block of rows are one product X̃_B θ, and each stored feature of a sparse row touches one
 * contiguous K-row of θ and of ∇F. A pass goes over blocks of at most {@value #BLOCK_ROWS} rows,
 * each with a block × K scores buffer per thread (never N × K): scores by gemm (dense x, converted
 * to double a block at a time) or by one axpy per stored feature (sparse x); then per row the
 * log-sum-exp, and P − Y in place; then ∇F += X̃_Bᵀ (P − Y) by a second gemm or the matching
 * scatter. The products and axpys come from the kernel SPI; the exponentials and the sums are plain
 * Java ({@code Math.exp}, in order), because a Vector API exponential or lane reduction gives other
 * last bits once C2 compiles it, and F would then depend on when that happens, so on the threads.
 * The blocks fall into a fixed number of chunks (at most {@value #MOST_PARTIAL_SUMS}, whatever the
 * thread count), each summed in order into its own partial gradient, and the partial sums are added
 * in chunk order, so that F and ∇F are the same bit for bit on any number of threads. One
 * evaluation runs at a time.
 */
public final class SoftmaxObjective implements DifferentiableFunction, AutoCloseable {
  /** The most rows in a block. */
  static final int BLOCK_ROWS = 256;

  /**
   * The most doubles in a block's converted dense features, so that the block stays in a core's
   * cache between the two products that read it; at least {@link #MIN_DENSE_ROWS} rows, though.
   */
  private static final int FEATURE_CELLS = 1 << 16;

  /** The fewest rows of a dense block, so that a wide θ is not streamed for a handful of rows. */
  private static final int MIN_DENSE_ROWS = 32;

  /** The most doubles in a block's scores, so that a large K shrinks the block. */
  private static final int SCORE_CELLS = 1 << 21;

  /** The most partial gradients: the most threads a pass keeps busy. */
  static final int MOST_PARTIAL_SUMS = 16;

  private final Dataset data;
  private final DenseFeatures dense;
  private final SparseFeatures sparse;
  private final int rows;
  private final int columns;
  private final int classes;
  private final int parameters;
  private final double precision;
  private final Kernels kernels;
  private final int blockRows;
  private final int blocks;
  private final int chunks;
  private final double[][] partialGradients;
  private final double[] chunkLoss;
  private final Scratch[] scratch;
  private final ExecutorService pool;
  private final AtomicInteger nextChunk = new AtomicInteger();

  /** One worker's buffers. */
  private record Scratch(double[] features, double[] scores) {}

  /**
   * The objective of a softmax model on {@code data} under a N(0, {@code priorVariance}) prior (0
   * for none), evaluated on {@code threads} threads.
   */
  public SoftmaxObjective(Dataset data, double priorVariance, int threads, Kernels kernels) {
    if (!(priorVariance >= 0 && priorVariance < Double.POSITIVE_INFINITY) || threads < 1) {
      throw new IllegalArgumentException(
          "priorVariance = "
              + priorVariance
              + " must be finite and >= 0, threads = "
              + threads
              + " >= 1");
    }
    if (data.rows() < 1 || data.classes() < 2) {
      throw new IllegalArgumentException(
          "training needs at least one example and 2 classes; the data have N = "
              + data.rows()
              + ", K = "
              + data.classes());
    }
    this.data = data;
    this.dense = data.features() instanceof DenseFeatures d ? d : null;
    this.sparse = data.features() instanceof SparseFeatures s ? s : null;
    this.rows = data.rows();
    this.columns = data.columns();
    this.classes = data.classes();
    this.parameters = parameterCount(columns, classes);
    this.precision = priorVariance == 0 ? 0 : 1 / (priorVariance * rows);
    this.kernels = kernels;
    this.blockRows = blockRows(rows, columns, classes, sparse != null);
    this.blocks = (rows + blockRows - 1) / blockRows;
    this.chunks = Math.min(MOST_PARTIAL_SUMS, blocks);
    int workers = Math.min(threads, chunks);
    this.partialGradients = new double[chunks - 1][parameters];
    this.chunkLoss = new double[chunks];
    this.scratch = new Scratch[workers];
    int featureCells =
        sparse != null
            ? 0
            : MemoryBudget.arrayLength(
                "a block of features, rows × (D + 1)", Double.BYTES, blockRows, columns + 1L);
    for (int w = 0; w < workers; w++) {
      scratch[w] = new Scratch(new double[featureCells], new double[blockRows * classes]);
    }
    this.pool =
        workers > 1
            ? Executors.newFixedThreadPool(
                workers,
                runnable -> {
                  Thread t = new Thread(runnable, "largecat-fullbatch");
                  t.setDaemon(true);
                  return t;
                })
            : null;
  }

  /** (D + 1) · K, checked to fit one array. */
  static int parameterCount(int columns, int classes) {
    return MemoryBudget.arrayLength(
        "the parameters of exact-softmax, (D + 1) × K", Double.BYTES, columns + 1L, classes);
  }

  private static int blockRows(int rows, int columns, int classes, boolean sparse) {
    int blockRows =
        sparse
            ? BLOCK_ROWS
            : Math.min(BLOCK_ROWS, Math.max(MIN_DENSE_ROWS, FEATURE_CELLS / (columns + 1)));
    return Math.max(1, Math.min(Math.min(blockRows, rows), SCORE_CELLS / classes));
  }

  /**
   * The bytes an objective holds besides the data and θ: its partial gradients and its threads'
   * block buffers.
   */
  static long bytesNeeded(int rows, int columns, int classes, boolean sparse, int threads) {
    int blockRows = blockRows(rows, columns, classes, sparse);
    long chunks = Math.min(MOST_PARTIAL_SUMS, (rows + (long) blockRows - 1) / blockRows);
    long workers = Math.min(threads, chunks);
    long perWorker = (long) blockRows * (classes + (sparse ? 0 : columns + 1L));
    return Double.BYTES * ((chunks - 1) * (columns + 1L) * classes + workers * perWorker);
  }

  /** The length of θ, (D + 1) · K. */
  public int parameters() {
    return parameters;
  }

  /** θ of {@code model}: [Wᵀ; bᵀ]. */
  public static double[] parametersOf(LinearModel model) {
    int d = model.columns();
    int k = model.classes();
    double[] theta = new double[parameterCount(d, k)];
    float[] w = model.weights();
    for (int c = 0; c < k; c++) {
      for (int j = 0; j < d; j++) {
        theta[j * k + c] = w[c * d + j];
      }
      theta[d * k + c] = model.biases()[c];
    }
    return theta;
  }

  /** Writes θ into {@code model}, its weights rounded to float. */
  public static void copyInto(double[] theta, LinearModel model) {
    int d = model.columns();
    int k = model.classes();
    float[] w = model.weights();
    for (int c = 0; c < k; c++) {
      for (int j = 0; j < d; j++) {
        w[c * d + j] = (float) theta[j * k + c];
      }
      model.biases()[c] = theta[d * k + c];
    }
  }

  @Override
  public double valueAndGradient(double[] theta, double[] gradient) {
    if (gradient.length != parameters) {
      throw new IllegalArgumentException(
          "gradient has " + gradient.length + " elements, θ needs " + parameters);
    }
    return evaluate(theta, gradient);
  }

  /** F(θ) alone: one pass without the gradient's products. */
  public double value(double[] theta) {
    return evaluate(theta, null);
  }

  private double evaluate(double[] theta, double[] gradient) {
    if (theta.length != parameters) {
      throw new IllegalArgumentException(
          "θ has " + theta.length + " elements, (D + 1) K = " + parameters);
    }
    nextChunk.set(0);
    if (pool == null) {
      chunksOnWorker(scratch[0], theta, gradient);
    } else {
      List<Callable<Void>> tasks = new ArrayList<>(scratch.length);
      for (Scratch s : scratch) {
        tasks.add(
            () -> {
              chunksOnWorker(s, theta, gradient);
              return null;
            });
      }
      Parallel.invokeAll(pool, tasks, "the full-batch softmax objective");
    }
    double loss = 0;
    for (double c : chunkLoss) {
      loss += c;
    }
    loss /= rows;
    if (precision > 0) {
      double squares = 0;
      for (double t : theta) {
        squares += t * t;
      }
      loss += precision / 2 * squares;
    }
    if (gradient != null) {
      sumPartials(theta, gradient);
    }
    return loss;
  }

  /** Takes chunks until none is left. */
  private void chunksOnWorker(Scratch s, double[] theta, double[] gradient) {
    for (int c = nextChunk.getAndIncrement(); c < chunks; c = nextChunk.getAndIncrement()) {
      double[] g = gradient == null ? null : c == 0 ? gradient : partialGradients[c - 1];
      if (g != null) {
        Arrays.fill(g, 0);
      }
      long firstBlock = (long) blocks * c / chunks;
      long endBlock = (long) blocks * (c + 1) / chunks;
      double loss = 0;
      for (long b = firstBlock; b < endBlock; b++) {
        int from = (int) (b * blockRows);
        loss += block(from, Math.min(rows, from + blockRows), theta, g, s);
      }
      chunkLoss[c] = loss;
    }
  }

  /**
   * ∇F = (the chunks' sums, in chunk order) / N + θ / (V N), element by element, split across the
   * threads.
   */
  private void sumPartials(double[] theta, double[] gradient) {
    int slices = scratch.length;
    if (pool == null) {
      sumPartials(theta, gradient, 0, parameters);
      return;
    }
    List<Callable<Void>> tasks = new ArrayList<>(slices);
    for (int t = 0; t < slices; t++) {
      int from = (int) ((long) parameters * t / slices);
      int to = (int) ((long) parameters * (t + 1) / slices);
      tasks.add(
          () -> {
            sumPartials(theta, gradient, from, to);
            return null;
          });
    }
    Parallel.invokeAll(pool, tasks, "the full-batch softmax gradient");
  }

  private void sumPartials(double[] theta, double[] gradient, int from, int to) {
    for (int p = from; p < to; p++) {
      double sum = gradient[p];
      for (double[] partial : partialGradients) {
        sum += partial[p];
      }
      gradient[p] = sum / rows + precision * theta[p];
    }
  }

  /**
   * Rows [from, to): returns Σ −log p(y_n | x_n) and, unless g is null, adds their X̃ᵀ (P − Y) to
   * g.
   */
  private double block(int from, int to, double[] theta, double[] g, Scratch s) {
    int count = to - from;
    double[] scores = s.scores();
    if (dense != null) {
      int width = columns + 1;
      double[] x = s.features();
      float[] values = dense.values();
      for (int i = 0; i < count; i++) {
        int row = (from + i) * columns;
        for (int j = 0; j < columns; j++) {
          x[i * width + j] = values[row + j];
        }
        x[i * width + columns] = 1;
      }
      kernels
          .matrixOps()
          .gemm(
              false, false, count, classes, width, 1, x, 0, width, theta, 0, classes, 0, scores, 0,
              classes);
      double loss = softmaxRows(from, count, scores, g != null);
      if (g != null) {
        kernels
            .matrixOps()
            .gemm(
                true, false, width, classes, count, 1, x, 0, width, scores, 0, classes, 1, g, 0,
                classes);
      }
      return loss;
    }
    sparseScores(from, count, theta, scores);
    double loss = softmaxRows(from, count, scores, g != null);
    if (g != null) {
      sparseGradient(from, count, scores, g);
    }
    return loss;
  }

  /** Each row's scores: the biases plus, per stored feature, its value times θ's row. */
  private void sparseScores(int from, int count, double[] theta, double[] scores) {
    var ops = kernels.vectorOps();
    int[] indptr = sparse.indptr();
    int[] indices = sparse.indices();
    float[] values = sparse.values();
    int biasRow = columns * classes;
    for (int i = 0; i < count; i++) {
      int out = i * classes;
      System.arraycopy(theta, biasRow, scores, out, classes);
      for (int nz = indptr[from + i]; nz < indptr[from + i + 1]; nz++) {
        ops.axpy(classes, values[nz], theta, indices[nz] * classes, scores, out);
      }
    }
  }

  /**
   * g += X̃_Bᵀ (P − Y): each row's P − Y into the bias row and, times each value, its feature's.
   */
  private void sparseGradient(int from, int count, double[] residuals, double[] g) {
    var ops = kernels.vectorOps();
    int[] indptr = sparse.indptr();
    int[] indices = sparse.indices();
    float[] values = sparse.values();
    int biasRow = columns * classes;
    for (int i = 0; i < count; i++) {
      int in = i * classes;
      ops.axpy(classes, 1.0, residuals, in, g, biasRow);
      for (int nz = indptr[from + i]; nz < indptr[from + i + 1]; nz++) {
        ops.axpy(classes, values[nz], residuals, in, g, indices[nz] * classes);
      }
    }
  }

  /**
   * Returns Σ (log Σ_k e^{s_k} − s_y) over the block's rows of scores and, when {@code residuals},
   * turns each row into p − e_y in place.
   */
  private double softmaxRows(int from, int count, double[] scores, boolean residuals) {
    int[] labels = data.labels();
    double loss = 0;
    for (int i = 0; i < count; i++) {
      int start = i * classes;
      int end = start + classes;
      double max = Double.NEGATIVE_INFINITY;
      for (int k = start; k < end; k++) {
        max = Math.max(max, scores[k]);
      }
      int label = start + labels[from + i];
      double labelScore = scores[label];
      double sum = 0;
      if (residuals) {
        for (int k = start; k < end; k++) {
          scores[k] = Math.exp(scores[k] - max);
          sum += scores[k];
        }
        for (int k = start; k < end; k++) {
          scores[k] /= sum;
        }
        scores[label] -= 1;
      } else {
        for (int k = start; k < end; k++) {
          sum += Math.exp(scores[k] - max);
        }
      }
      loss += max + Math.log(sum) - labelScore;
    }
    return loss;
  }

  /** Stops the threads. */
  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
