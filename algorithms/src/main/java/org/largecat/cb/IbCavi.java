package org.largecat.cb;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.largecat.MemoryBudget;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;

/**
 * Independent-binary coordinate ascent variational inference (IB-CAVI, Sec. 3.3): closed-form CAVI
 * for the IB-probit (Algorithm 2, App. D) or IB-logit (Algorithm 3, App. E) model on the one-hot
 * labels, giving a q(B) for every CB likelihood on that base.
 *
 * <p>Categories are independent (Sec. 3.3), so the work is cut into fixed blocks of {@value
 * CaviRows#BLOCK} categories that run in parallel; a block holds N x 64 scratch (probit: a chunk of
 * rows x 64, taken chunk after chunk in row order), never N x K, and the block partition does not
 * depend on the thread count, so a run gives the same numbers on any number of threads. Each block
 * does the rows' half of the pass ({@link CaviRows}: the data terms and sufficient statistics) and
 * then the driver's half ({@link CaviUpdate}: the prior terms and the new q(B)) for its categories;
 * the Spark module runs the same two halves with the rows in partitions.
 *
 * <p>Convergence: stop when an update raised the ELBO by at most tolerance * |ELBO|; one more pass
 * then evaluates the returned q(B), so the last ELBO is exactly the returned posterior's.
 */
public final class IbCavi implements CaviRun {
  /** The bytes of an array's header in a 64-bit JVM with compressed pointers. */
  private static final long ARRAY_HEADER_BYTES = 16;

  private final CaviRows rows;
  private final CaviUpdate update;
  private final CaviOptions options;
  private final ThreadLocal<CaviRows.Workspace> workspaces;

  /** Worker threads, or null to run the blocks on the caller's thread. */
  private final ExecutorService pool;

  private IbCavi(Dataset data, GaussianPrior prior, CaviOptions options, Kernels kernels) {
    this.rows = CaviRows.of(data, options.link(), options.diagonal(), kernels);
    this.options = options;
    int dim = rows.dimension();
    if (prior.dimension() != dim) {
      throw new IllegalArgumentException(
          "prior has dimension "
              + prior.dimension()
              + " but the design has "
              + dim
              + " columns ("
              + (dim - 1)
              + " features and the intercept)");
    }
    this.update = new CaviUpdate(prior, options, rows.categories(), kernels, rows);
    workspaces = ThreadLocal.withInitial(rows::workspace);
    pool =
        options.threads() > 1
            ? Executors.newFixedThreadPool(
                options.threads(),
                r -> {
                  Thread t = new Thread(r, "ib-cavi");
                  t.setDaemon(true);
                  return t;
                })
            : null;
  }

  /**
   * Prepares a run: the design, the starting q(B) and, for probit, the shared factor; the caller
   * steps it with {@link #iterate()} and closes it (which stops its threads).
   */
  public static IbCavi start(
      Dataset data, GaussianPrior prior, CaviOptions options, Kernels kernels) {
    if (data.rows() < 1) {
      throw new IllegalArgumentException("IB-CAVI needs at least one example");
    }
    checkShape(data, prior.dimension(), options);
    return new IbCavi(data, prior, options, kernels);
  }

  /**
   * Refuses, before any work, a shape whose q(B) could not be held: the (D + 1) × K means and
   * variances or right sides, and for logit the N × K kappa and, unless diagonal, one (D + 1)²
   * factor per class (each a small array with its header).
   */
  private static void checkShape(Dataset data, int m, CaviOptions options) {
    int k = data.classes();
    long bytes =
        2L
            * Double.BYTES
            * MemoryBudget.arrayLength("q(B)'s means, (D + 1) × K", Double.BYTES, m, k);
    if (options.link() == Link.LOGIT) {
      bytes +=
          (long) Double.BYTES
              * MemoryBudget.arrayLength("the logit's kappa, N × K", Double.BYTES, data.rows(), k);
      if (!options.diagonal()) {
        long factor =
            ARRAY_HEADER_BYTES
                + (long) Double.BYTES
                    * MemoryBudget.arrayLength(
                        "a class's covariance factor, (D + 1)²", Double.BYTES, m, m);
        bytes += k * factor;
      }
    }
    MemoryBudget.require(
        bytes, "IB-CAVI's q(B) for K = " + k + " classes and D + 1 = " + m + " weights each");
  }

  /**
   * Fits q(B) to the dataset (features without an intercept; the design adds it) with the prior
   * given.
   */
  public static CaviFit fit(
      Dataset data, GaussianPrior prior, CaviOptions options, Kernels kernels) {
    try (IbCavi run = start(data, prior, options, kernels)) {
      return iterate(run, options);
    }
  }

  /**
   * Steps a run until the relative rise of its ELBO falls to the options' tolerance or the most
   * iterations are done, then evaluates the ELBO of the q(B) it returns.
   */
  public static CaviFit iterate(CaviRun run, CaviOptions options) {
    List<Double> trace = new ArrayList<>();
    List<Double> seconds = new ArrayList<>();
    int iterations = 0;
    boolean converged = false;
    while (iterations < options.maxIterations() && !converged) {
      long start = System.nanoTime();
      trace.add(run.iterate());
      seconds.add((System.nanoTime() - start) * 1e-9);
      iterations++;
      int t = trace.size() - 1;
      if (t >= 1 && options.tolerance() > 0) {
        converged = trace.get(t) - trace.get(t - 1) <= options.tolerance() * Math.abs(trace.get(t));
      }
    }
    trace.add(run.elbo());
    double[] elbo = trace.stream().mapToDouble(Double::doubleValue).toArray();
    return new CaviFit(
        run.posterior(),
        elbo,
        seconds.stream().mapToDouble(Double::doubleValue).toArray(),
        iterations,
        converged,
        run.cells());
  }

  @Override
  public double iterate() {
    return pass(true);
  }

  @Override
  public double elbo() {
    return pass(false);
  }

  @Override
  public CbPosterior posterior() {
    return update.posterior();
  }

  @Override
  public long cells() {
    return (long) rows.rows() * rows.categories();
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  /** One pass over all blocks: returns the ELBO of the current q(B), then updates q(B) if asked. */
  private double pass(boolean updating) {
    int blocks = CaviRows.blocks(rows.categories());
    CbPosterior.State q = update.posterior().view();
    List<Callable<Double>> tasks = new ArrayList<>(blocks);
    for (int b = 0; b < blocks; b++) {
      int block = b;
      tasks.add(
          () ->
              options.link() == Link.PROBIT
                  ? probitBlock(block, q.means(), updating)
                  : logitBlock(block, q, updating));
    }
    double elbo = 0;
    try {
      if (pool == null) {
        for (Callable<Double> t : tasks) {
          elbo += t.call();
        }
      } else {
        for (Future<Double> f : pool.invokeAll(tasks)) {
          elbo += f.get();
        }
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("IB-CAVI interrupted", e);
    } catch (Exception e) {
      throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
    }
    if (updating) {
      update.solveShared();
    }
    return elbo;
  }

  private double probitBlock(int block, double[] means, boolean updating) {
    CaviRows.Workspace w = workspaces.get();
    double elbo = update.probitPriorTerms(block);
    if (updating) {
      update.priorRightSide(block, w.rightSide);
    }
    elbo = rows.probitBlock(w, block, means, elbo, updating);
    if (updating) {
      update.finishProbitBlock(block, w.rightSide);
    }
    return elbo;
  }

  private double logitBlock(int block, CbPosterior.State q, boolean updating) {
    CaviRows.Workspace w = workspaces.get();
    double data = rows.logitBlock(w, block, q, updating);
    return update.finishLogitBlock(block, data, w.grams, 0, updating);
  }
}
