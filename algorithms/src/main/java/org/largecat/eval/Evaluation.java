package org.largecat.eval;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.largecat.Parallel;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.ScoreModel;

/**
 * Exact evaluation of a {@link ScoreModel} on a dataset: the mean log-likelihood per example, the
 * accuracy and the top-k accuracy. All K utilities of each example are computed in float, a block
 * of rows by one gemm ({@link Predictor#forEachScoreRow}); the softmax's log p is ψ_y −
 * logsumexp(ψ) (A&R Eq. 1), shifted by the row's largest ψ with the exponentials summed in double,
 * and probit and logistic take their quadrature on the same utilities widened to double. The
 * predicted class is the largest ψ (ties to the smaller index), which is the most probable class
 * under every link, since each is monotone in ψ_k.
 *
 * <p>Threads compute the examples' log-probabilities, each a run of whole blocks of {@link
 * Predictor}'s rows; the sum runs in example order, so the result is the same bit for bit for any
 * thread count, and for a file read whole or in blocks of a multiple of {@link Predictor#blockRows}
 * rows ({@link Accumulator}; any cut, where the gemm's rows do not depend on the rows beside them,
 * as the scalar and simd backends' do not).
 */
public final class Evaluation {
  /** Examples whose log-probabilities are held at once before they are added up in order. */
  private static final int SLICE = 1 << 14;

  private Evaluation() {}

  /** The measures of one evaluation. */
  public record Result(
      double meanLogLikelihood, double accuracy, double topKAccuracy, int topK, int examples) {}

  /**
   * The sums behind a {@link Result}, which add across disjoint parts of a test set (e.g. the
   * partitions of a distributed one): the result of the sum of the parts' sums equals the whole's
   * to the order of the log-likelihood's sum.
   *
   * @param logLikelihood Σ log p(y_n | x_n)
   * @param correct examples whose label ranks first
   * @param correctTopK examples whose label ranks within the top k
   * @param examples examples summed
   */
  public record Sums(double logLikelihood, long correct, long correctTopK, long examples)
      implements Serializable {
    /** Sums of no example. */
    public static final Sums NONE = new Sums(0, 0, 0, 0);

    /** The sums of both parts. */
    public Sums plus(Sums other) {
      return new Sums(
          logLikelihood + other.logLikelihood,
          correct + other.correct,
          correctTopK + other.correctTopK,
          examples + other.examples);
    }

    /** The measures these sums give with top-{@code topK}; no example is an error. */
    public Result result(int topK) {
      if (examples == 0 || examples > Integer.MAX_VALUE) {
        throw new IllegalStateException(examples + " examples evaluated; need 1 to 2^31 - 1");
      }
      double n = examples;
      return new Result(logLikelihood / n, correct / n, correctTopK / n, topK, (int) examples);
    }
  }

  /**
   * Evaluates {@code model} on {@code data} with {@code threads} threads; examples split in fixed
   * chunks.
   */
  public static Result evaluate(
      ScoreModel model, Dataset data, Kernels kernels, int topK, int threads) {
    Accumulator sum = new Accumulator(model, kernels, topK, threads);
    sum.add(data);
    return sum.result();
  }

  /**
   * Sums the measures over the blocks of one test set, added in file order: the result is the one
   * {@link #evaluate} gives on the whole set.
   */
  public static final class Accumulator {
    private final ScoreModel model;
    private final Kernels kernels;
    private final int topK;
    private final int threads;
    private final double[] logP = new double[SLICE];
    private final boolean[] top1 = new boolean[SLICE];
    private final boolean[] topKHit = new boolean[SLICE];
    private double logLikelihood;
    private long correct;
    private long correctTopK;
    private long examples;

    public Accumulator(ScoreModel model, Kernels kernels, int topK, int threads) {
      if (topK < 1 || threads < 1) {
        throw new IllegalArgumentException(
            "topK = " + topK + " and threads = " + threads + " must be >= 1");
      }
      this.model = model;
      this.kernels = kernels;
      this.topK = topK;
      this.threads = threads;
    }

    /** Adds the examples of {@code block}, which follow those added before. */
    public void add(Dataset block) {
      model.requireShapeOf(block);
      for (int from = 0; from < block.rows(); from += SLICE) {
        int count = Math.min(SLICE, block.rows() - from);
        score(block, from, count);
        for (int i = 0; i < count; i++) {
          logLikelihood += logP[i];
          correct += top1[i] ? 1 : 0;
          correctTopK += topKHit[i] ? 1 : 0;
        }
        examples += count;
      }
    }

    /**
     * Fills logP, top1 and topKHit for rows [first, first + count) of the block, in threads; the
     * first of them is example {@code examples + 1} of the set.
     */
    private void score(Dataset block, int first, int count) {
      // Chunks of whole blocks: a row's block, and so its gemm, is the same for any thread count.
      int rowsPerBlock = Predictor.blockRows(model.classes());
      int blocks = (count + rowsPerBlock - 1) / rowsPerBlock;
      int parts = Math.min(threads, blocks);
      long firstExample = examples + 1;
      int[] labels = block.labels();
      List<Callable<Void>> chunks = new ArrayList<>();
      for (int r = 0; r < parts; r++) {
        int from = (int) Math.min(count, (long) blocks * r / parts * rowsPerBlock);
        int to = (int) Math.min(count, (long) blocks * (r + 1) / parts * rowsPerBlock);
        chunks.add(
            () -> {
              Predictor predictor = new Predictor(model, kernels);
              predictor.forEachScoreRow(
                  block.features(),
                  first + from,
                  first + to,
                  firstExample + from,
                  (row, scores) -> {
                    int i = row - first;
                    int y = labels[row];
                    logP[i] = scores.logProbability(y);
                    int rank = scores.rank(y, topK);
                    top1[i] = rank == 0;
                    topKHit[i] = rank < topK;
                  });
              return null;
            });
      }
      runAll(chunks, parts);
    }

    /** The measures over every example added; none is an error. */
    public Result result() {
      return sums().result(topK);
    }

    /** The sums over every example added, none or more. */
    public Sums sums() {
      return new Sums(logLikelihood, correct, correctTopK, examples);
    }
  }

  private static void runAll(List<Callable<Void>> tasks, int threads) {
    if (threads == 1) {
      try {
        tasks.get(0).call();
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      Parallel.invokeAll(pool, tasks, "evaluation");
    } finally {
      pool.shutdownNow();
    }
  }
}
