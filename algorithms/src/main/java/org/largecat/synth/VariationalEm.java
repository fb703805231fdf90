package org.largecat.synth;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.largecat.MemoryBudget;
import org.largecat.kernel.Kernels;

/**
 * Fits model (1) to survey answers by Algorithm 1 of the synthetic-categorical-data paper: E-steps
 * per user (variational, §3, or Laplace, §5.1; see {@link UserPosterior}) run on a fixed thread
 * pool, then the M-step — μ and Σ in closed form (§3), B by block Newton per item ({@link
 * EmbeddingUpdate}), items spread over the same pool. Every user's and every item's result depends
 * only on the seed, never on which thread ran it, so a fit is reproducible for any thread count.
 * With {@link Method#VEM} the bound (the sum of the users' L_u plus the log prior of B) never
 * decreases across iterations. {@link Method#BETA_PRIOR} fits §5.4's model with a prior on B
 * instead ({@link BetaPriorEm}).
 */
public final class VariationalEm {
  /** How q(z_u) is found in the E-step. */
  public enum Method {
    /** Mean-field Gaussian q with diagonal covariance maximising the ζ bound (§3). */
    VEM,
    /** Laplace approximation: mode and inverse negative Hessian of log p(x_u, z) (§5.1). */
    LAPLACE,
    /**
     * Monte Carlo EM: the Laplace q as an importance-sampling proposal, the E-step's moments and
     * the B-step weighted by p(x_u, z) / q(z); corrects q's bias at the cost of S draws per user.
     */
    IMPORTANCE,
    /**
     * §5.4: a N(0, γ² I) prior on every β_ik and a Gaussian q(β_ik) beside q(z_u), both diagonal,
     * E_q exp(z'β) by the moment-generating function of §5.4.3 ({@link BetaPriorEm}); the bound
     * never decreases.
     */
    BETA_PRIOR;

    /**
     * Draws per user for the B-step when none are asked for: none for vem (the ζ bound, so the
     * bound never decreases) and beta-prior (exact in q(β)); 8 for laplace (§5.1 estimates E_q log
     * b from one draw; 8 cut its noise); 16 importance samples.
     */
    public int defaultSamples() {
      return switch (this) {
        case VEM, BETA_PRIOR -> 0;
        case LAPLACE -> 8;
        case IMPORTANCE -> 16;
      };
    }

    /** The method's command-line name. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** The method whose {@link #label} is {@code name}: vem, laplace, importance or beta-prior. */
    public static Method parse(String name) {
      for (Method method : values()) {
        if (method.label().equals(name)) {
          return method;
        }
      }
      throw new IllegalArgumentException(
          "--method must be vem, laplace, importance or beta-prior, got '" + name + "'");
    }
  }

  /**
   * Fit settings. {@code tolerance} ends the fit when the bound's relative change is below it;
   * {@code embeddingSteps} caps the Newton steps on each item's B_i per M-step; {@code
   * embeddingSamples} = 0 updates B on the ζ bound (§3, VEM only; the bound then never decreases),
   * S > 0 on a Monte Carlo estimate of E_q log p(x | z) from S fixed draws per user (§5.1 uses
   * one), free of the bound's Jensen gap; Laplace needs S >= 1, importance sampling S >= 2.
   */
  public record Options(
      int latent,
      Method method,
      int threads,
      int maxIterations,
      double tolerance,
      long seed,
      int embeddingSteps,
      int embeddingSamples) {
    public Options {
      int fewest =
          switch (method) {
            case VEM, BETA_PRIOR -> 0;
            case LAPLACE -> 1;
            case IMPORTANCE -> 2;
          };
      if (method == Method.BETA_PRIOR && embeddingSamples != 0) {
        throw new IllegalArgumentException(
            "--samples does not apply to --method beta-prior (its bound is exact in"
                + " q(β), §5.4.3), got "
                + embeddingSamples);
      }
      if (embeddingSamples < fewest) {
        throw new IllegalArgumentException(
            "--samples must be >= "
                + fewest
                + " with --method "
                + method.label()
                + ", got "
                + embeddingSamples
                + (method == Method.LAPLACE
                    ? " (the B-step on the ζ bound needs a diagonal V; §5.1 uses draws of q)"
                    : ""));
      }
      if (latent < 1) {
        throw new IllegalArgumentException("--latent must be >= 1, got " + latent);
      }
      if (method == null) {
        throw new IllegalArgumentException("method must not be null");
      }
      if (threads < 1) {
        throw new IllegalArgumentException("--threads must be >= 1, got " + threads);
      }
      if (maxIterations < 1) {
        throw new IllegalArgumentException("--iterations must be >= 1, got " + maxIterations);
      }
      if (!(tolerance >= 0)) {
        throw new IllegalArgumentException("--tolerance must be >= 0, got " + tolerance);
      }
      if (embeddingSteps < 1) {
        throw new IllegalArgumentException("embeddingSteps must be >= 1, got " + embeddingSteps);
      }
    }

    /** Whether a bound that moved from {@code previous} to {@code bound} ends the fit. */
    boolean settled(double previous, double bound) {
      return Math.abs(bound - previous) <= tolerance * Math.abs(bound);
    }
  }

  /** One EM iteration: the bound after its E-step, and the wall time of its E- and M-step. */
  public record Iteration(int number, double bound, double eStepSeconds, double mStepSeconds) {}

  /** The fitted model, the iterations, and the final q(z_u): λ (U x d) and V (U x d x d). */
  public record Result(
      SynthModel model, List<Iteration> iterations, double[] lambda, double[] covariance) {
    /** How many iterations ended with a lower bound than the one before. */
    public int boundDecreases() {
      int decreases = 0;
      for (int t = 1; t < iterations.size(); t++) {
        decreases += iterations.get(t).bound() < iterations.get(t - 1).bound() ? 1 : 0;
      }
      return decreases;
    }

    /** The largest fall of the bound from one iteration to the next (0 when it never fell). */
    public double largestBoundDrop() {
      double largest = 0;
      for (int t = 1; t < iterations.size(); t++) {
        largest = Math.max(largest, iterations.get(t - 1).bound() - iterations.get(t).bound());
      }
      return largest;
    }

    /**
     * Whether the fit ended because its bound settled within {@code options}' tolerance, not at its
     * most iterations.
     */
    public boolean converged(Options options) {
      int n = iterations.size();
      return n > 1 && options.settled(iterations.get(n - 2).bound(), iterations.get(n - 1).bound());
    }

    /** Wall time of all iterations' E- and M-steps, in seconds. */
    public double seconds() {
      double total = 0;
      for (Iteration iteration : iterations) {
        total += iteration.eStepSeconds() + iteration.mStepSeconds();
      }
      return total;
    }
  }

  private static final double USER_TOLERANCE = 1e-10;
  private static final double EMBEDDING_TOLERANCE = 1e-9;
  private static final int USERS_PER_TASK = 64;

  private VariationalEm() {}

  /**
   * Fits the model from {@code initial} (null: μ = 0, Σ = I, β_iks ~ N(0, 1) from the seed); {@code
   * progress} sees each iteration as it ends.
   */
  public static Result fit(
      ChoiceData data, Options options, SynthModel initial, Consumer<Iteration> progress)
      throws InterruptedException {
    int items = data.items();
    int choiceCount = data.choiceCount();
    int d = options.latent();
    if (initial != null
        && (initial.items() != items
            || initial.choiceCount() != choiceCount
            || initial.latent() != d)) {
      throw new IllegalArgumentException(
          "the initial model has items="
              + initial.items()
              + " choices="
              + initial.choiceCount()
              + " latent="
              + initial.latent()
              + ", the data and options need items="
              + items
              + " choices="
              + choiceCount
              + " latent="
              + d);
    }
    checkShape(data.users(), items, choiceCount, d, options);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            options.threads(),
            runnable -> {
              Thread thread = new Thread(runnable, "largecat-synth");
              thread.setDaemon(true);
              return thread;
            });
    try {
      return options.method() == Method.BETA_PRIOR
          ? BetaPriorEm.fit(data, options, initial, progress, pool, Kernels.get().matrixOps())
          : fit(data, options, initial, progress, pool);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Refuses, before any work, a shape whose largest arrays could not be allocated. */
  private static void checkShape(int users, int items, int choiceCount, int d, Options options) {
    int samples = options.embeddingSamples();
    MemoryBudget.arrayLength("the embeddings, items × K × d", Double.BYTES, items, choiceCount, d);
    MemoryBudget.arrayLength("the users' covariances, users × d × d", Double.BYTES, users, d, d);
    MemoryBudget.arrayLength(
        "the users' posterior points, users × max(samples, 2) × d",
        Double.BYTES,
        users,
        Math.max(samples, 2),
        d);
    long perThread =
        UserPosterior.workspaceBytes(items, choiceCount, d)
            + EmbeddingUpdate.workspaceBytes(choiceCount, d);
    MemoryBudget.require(
        perThread * options.threads(),
        "the E- and M-step workspaces of " + options.threads() + " threads");
  }

  /**
   * Where a fit starts, in fresh arrays the fit updates in place: μ = 0, Σ = I and N(0, 1)
   * embeddings drawn from {@code random}, or, when {@code initial} is given, its values (the draws
   * are made either way, so the random stream after them is the same).
   */
  static SynthModel startingModel(
      int items, int choiceCount, int d, SynthModel initial, SplittableRandom random) {
    double[] embeddings = new double[items * choiceCount * d];
    for (int j = 0; j < embeddings.length; j++) {
      embeddings[j] = random.nextGaussian();
    }
    if (initial == null) {
      return new SynthModel(
          items, choiceCount, d, new double[d], ModelParameters.identity(d), embeddings);
    }
    return new SynthModel(
        items,
        choiceCount,
        d,
        initial.mean().clone(),
        initial.covariance().clone(),
        initial.embeddings().clone());
  }

  private static Result fit(
      ChoiceData data,
      Options options,
      SynthModel initial,
      Consumer<Iteration> progress,
      ExecutorService pool)
      throws InterruptedException {
    int users = data.users();
    int items = data.items();
    int choiceCount = data.choiceCount();
    int d = options.latent();
    Kernels kernels = Kernels.get();
    SplittableRandom random = new SplittableRandom(options.seed());
    SynthModel initialModel = startingModel(items, choiceCount, d, initial, random);
    double[] mean = initialModel.mean();
    double[] covariance = initialModel.covariance();
    double[] embeddings = initialModel.embeddings();
    double[] lambda = new double[users * d];
    double[] userCovariance = new double[users * d * d];
    for (int u = 0; u < users; u++) {
      System.arraycopy(covariance, 0, userCovariance, u * d * d, d * d);
    }
    double[] userBound = new double[users];
    int threads = options.threads();
    UserPosterior[] posteriors = new UserPosterior[threads];
    EmbeddingUpdate[] updates = new EmbeddingUpdate[threads];
    for (int w = 0; w < threads; w++) {
      posteriors[w] = new UserPosterior(items, choiceCount, d, USER_TOLERANCE, kernels);
      updates[w] =
          new EmbeddingUpdate(
              choiceCount, d, options.embeddingSteps(), EMBEDDING_TOLERANCE, kernels);
    }
    boolean laplace = options.method() != Method.VEM;
    boolean importance = options.method() == Method.IMPORTANCE;
    int samples = options.embeddingSamples();
    double[] noise = new double[users * samples * d];
    for (int j = 0; j < noise.length; j++) {
      noise[j] = random.nextGaussian();
    }
    double[] points = new double[users * samples * d];
    double[] pointWeights = importance ? new double[users * samples] : null;
    double[] meanAndVariance = samples > 0 ? null : new double[users * 2 * d];
    PosteriorPoints posteriorPoints =
        samples > 0
            ? new PosteriorPoints(points, d, samples, pointWeights)
            : new PosteriorPoints(meanAndVariance, 2 * d, 1, null);
    List<Iteration> iterations = new ArrayList<>();
    double previous = Double.NEGATIVE_INFINITY;
    for (int t = 1; t <= options.maxIterations(); t++) {
      long start = System.nanoTime();
      ModelParameters parameters =
          new ModelParameters(
              items,
              choiceCount,
              d,
              mean.clone(),
              covariance.clone(),
              embeddings.clone(),
              kernels.matrixOps());
      parallel(
          pool,
          threads,
          (users + USERS_PER_TASK - 1) / USERS_PER_TASK,
          (worker, task) -> {
            UserPosterior posterior = posteriors[worker];
            int end = Math.min(users, (task + 1) * USERS_PER_TASK);
            for (int u = task * USERS_PER_TASK; u < end; u++) {
              userBound[u] =
                  laplace
                      ? posterior.fitLaplace(parameters, data, u, lambda, userCovariance)
                      : posterior.fitVariational(parameters, data, u, lambda, userCovariance);
              if (importance) {
                userBound[u] =
                    posterior.importanceSample(
                        parameters,
                        data,
                        u,
                        lambda,
                        userCovariance,
                        noise,
                        samples,
                        points,
                        pointWeights);
              } else if (samples > 0) {
                posterior.drawPoints(u, lambda, userCovariance, noise, samples, points);
              } else {
                for (int s = 0; s < d; s++) {
                  meanAndVariance[u * 2 * d + s] = lambda[u * d + s];
                  meanAndVariance[u * 2 * d + d + s] = userCovariance[u * d * d + s * d + s];
                }
              }
            }
          });
      double bound =
          sum(userBound) - 0.5 * EmbeddingUpdate.PRIOR_PRECISION * squaredNorm(embeddings);
      long afterEStep = System.nanoTime();
      boolean converged = t > 1 && options.settled(previous, bound);
      if (!converged && t < options.maxIterations()) {
        updateMeanAndCovariance(users, d, lambda, userCovariance, mean, covariance);
        parallel(
            pool,
            threads,
            items,
            (worker, item) -> updates[worker].update(item, embeddings, data, posteriorPoints));
      }
      Iteration iteration =
          new Iteration(
              t, bound, (afterEStep - start) * 1e-9, (System.nanoTime() - afterEStep) * 1e-9);
      iterations.add(iteration);
      progress.accept(iteration);
      previous = bound;
      if (converged) {
        break;
      }
    }
    SynthModel model = new SynthModel(items, choiceCount, d, mean, covariance, embeddings);
    return new Result(model, iterations, lambda, userCovariance);
  }

  /** μ = mean of λ_u, Σ = mean of V_u + (λ_u − μ)(λ_u − μ)' (Algorithm 1's M-step). */
  static void updateMeanAndCovariance(
      int users,
      int d,
      double[] lambda,
      double[] userCovariance,
      double[] mean,
      double[] covariance) {
    java.util.Arrays.fill(mean, 0);
    for (int u = 0; u < users; u++) {
      for (int s = 0; s < d; s++) {
        mean[s] += lambda[u * d + s];
      }
    }
    for (int s = 0; s < d; s++) {
      mean[s] /= users;
    }
    java.util.Arrays.fill(covariance, 0);
    for (int u = 0; u < users; u++) {
      for (int s = 0; s < d; s++) {
        double ds = lambda[u * d + s] - mean[s];
        for (int t = 0; t <= s; t++) {
          covariance[s * d + t] +=
              userCovariance[u * d * d + s * d + t] + ds * (lambda[u * d + t] - mean[t]);
        }
      }
    }
    for (int s = 0; s < d; s++) {
      for (int t = 0; t <= s; t++) {
        covariance[s * d + t] /= users;
        covariance[t * d + s] = covariance[s * d + t];
      }
    }
  }

  /**
   * A unit of parallel work: task number {@code task}, run by worker {@code worker} (its
   * workspace).
   */
  interface Task {
    void run(int worker, int task);
  }

  /**
   * Runs tasks 0..count-1 on {@code threads} workers of the pool, each worker pulling the next
   * task.
   */
  static void parallel(ExecutorService pool, int threads, int count, Task task)
      throws InterruptedException {
    AtomicInteger next = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>(threads);
    for (int w = 0; w < threads; w++) {
      int worker = w;
      futures.add(
          pool.submit(
              () -> {
                for (int j = next.getAndIncrement(); j < count; j = next.getAndIncrement()) {
                  task.run(worker, j);
                }
              }));
    }
    for (Future<?> future : futures) {
      try {
        future.get();
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException runtime) {
          throw runtime;
        }
        throw new IllegalStateException(cause);
      }
    }
  }

  static double sum(double[] values) {
    double total = 0;
    for (double v : values) {
      total += v;
    }
    return total;
  }

  private static double squaredNorm(double[] values) {
    double total = 0;
    for (double v : values) {
      total += v * v;
    }
    return total;
  }
}
