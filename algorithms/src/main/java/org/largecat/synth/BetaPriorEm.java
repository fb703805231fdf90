package org.largecat.synth;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.largecat.kernel.MatrixOps;

/**
 * Fits the model of §5.4 of the synthetic-categorical-data paper, (8)-(10): model (1) with a prior
 * β_ik ~ N(0, γ² I) on the embeddings, by variational EM with q(z_u) = N(λ_u, diag v_u) and q(β_ik)
 * = N(ψ_ik, diag w_ik), E_q exp(z_u'β_ik) = Π_s f(λ_us, v_us, ψ_iks, w_iks) by the
 * moment-generating function of §5.4.3 ({@link GaussianMoment}). Each iteration is coordinate
 * ascent on the §5.4.1 bound
 *
 * <pre>
 *   L = Σ_{u,i} [ λ_u'ψ_{i,x_ui} − log Σ_k Π_s f_uiks ]
 *     + Σ_u [ −½(λ_u−μ)'Σ⁻¹(λ_u−μ) − ½ tr(Σ⁻¹V_u) + ½ log|V_u| + ½ log|Σ⁻¹| + d/2 ]
 *     + Σ_ik [ −(|ψ_ik|² + tr W_ik)/(2γ²) + ½ log|W_ik| − (d/2) log γ² + d/2 ],
 * </pre>
 *
 * a lower bound on log p(x | μ, Σ, γ²): the E-step per user ({@link MeanFieldNewton}), μ and Σ in
 * closed form (§5.4.2), q(β_ik) per item (the same Newton, roles swapped), then γ² = Σ_ik (|ψ_ik|²
 * + tr W_ik) / (I K d) in closed form (§5.4.2). Every step maximises L in its own variables, so L
 * never decreases across iterations. Corrections to the extracted text: the log|Σ⁻¹| and log γ⁻²
 * terms of §5.4.1 carry a factor ½ (U/2 log|Σ⁻¹|, (IKd/2) log γ⁻²: Gaussian log densities), and the
 * bound takes one ζ per (user, item) at its closed form (see {@link MeanFieldNewton}). The fitted
 * model (for generating data) takes B = ψ, the posterior means. Like the other methods, every
 * user's and item's result depends only on the seed, never on the thread that ran it.
 */
final class BetaPriorEm {
  /** Starting posterior variance w of every β_iks: small, so 1 − v w > 0 with room to spare. */
  static final double INITIAL_EMBEDDING_VARIANCE = 0.01;

  private static final double USER_TOLERANCE = 1e-10;
  private static final double EMBEDDING_TOLERANCE = 1e-9;
  private static final int USER_STEPS = 100;
  private static final int USERS_PER_TASK = 64;

  private BetaPriorEm() {}

  /**
   * See {@link VariationalEm#fit}; {@code options.embeddingSteps()} caps the Newton steps on each
   * item's q(B_i).
   */
  static VariationalEm.Result fit(
      ChoiceData data,
      VariationalEm.Options options,
      SynthModel initial,
      Consumer<VariationalEm.Iteration> progress,
      ExecutorService pool,
      MatrixOps matrixOps)
      throws InterruptedException {
    int users = data.users();
    int items = data.items();
    int choiceCount = data.choiceCount();
    int d = options.latent();
    int threads = options.threads();
    SplittableRandom random = new SplittableRandom(options.seed());
    SynthModel initialModel = VariationalEm.startingModel(items, choiceCount, d, initial, random);
    double[] mean = initialModel.mean();
    double[] covariance = initialModel.covariance();
    double[] psi = initialModel.embeddings();
    double[] embeddingVariance = new double[psi.length];
    java.util.Arrays.fill(embeddingVariance, INITIAL_EMBEDDING_VARIANCE);
    double priorVariance = 1;
    double[] lambda = new double[users * d];
    double[] userVariance = new double[users * d];
    for (int u = 0; u < users; u++) {
      System.arraycopy(mean, 0, lambda, u * d, d);
      for (int s = 0; s < d; s++) {
        userVariance[u * d + s] = covariance[s * d + s];
      }
    }
    double[] userBound = new double[users];
    MeanFieldNewton[] workers = new MeanFieldNewton[threads];
    int[][] userChoices = new int[threads][items];
    int[][] itemChoices = new int[threads][users];
    MeanFieldNewton[] itemWorkers = new MeanFieldNewton[threads];
    for (int w = 0; w < threads; w++) {
      workers[w] = new MeanFieldNewton(choiceCount, d, choiceCount, USER_TOLERANCE, matrixOps);
      itemWorkers[w] =
          new MeanFieldNewton(choiceCount, d, choiceCount, EMBEDDING_TOLERANCE, matrixOps);
    }
    MeanFieldNewton.Layout userLayout = new MeanFieldNewton.Layout(items, 1, choiceCount, 1, 0);
    MeanFieldNewton.Layout itemLayout = new MeanFieldNewton.Layout(users, choiceCount, 1, 0, 1);
    double[] userCovariance = new double[users * d * d];
    List<VariationalEm.Iteration> iterations = new ArrayList<>();
    double previous = Double.NEGATIVE_INFINITY;
    for (int t = 1; t <= options.maxIterations(); t++) {
      long start = System.nanoTime();
      ModelParameters parameters =
          new ModelParameters(
              items, choiceCount, d, mean.clone(), covariance.clone(), psi, matrixOps);
      VariationalEm.parallel(
          pool,
          threads,
          (users + USERS_PER_TASK - 1) / USERS_PER_TASK,
          (worker, task) -> {
            int[] chosen = userChoices[worker];
            int end = Math.min(users, (task + 1) * USERS_PER_TASK);
            for (int u = task * USERS_PER_TASK; u < end; u++) {
              for (int i = 0; i < items; i++) {
                chosen[i] = data.choice(u, i);
              }
              userBound[u] =
                  workers[worker].maximise(
                          userLayout,
                          lambda,
                          userVariance,
                          u * d,
                          psi,
                          embeddingVariance,
                          chosen,
                          parameters.mean,
                          parameters.precision,
                          USER_STEPS)
                      + 0.5 * (parameters.logDetPrecision + d);
            }
          });
      double bound =
          VariationalEm.sum(userBound) + embeddingTerms(psi, embeddingVariance, priorVariance, d);
      long afterEStep = System.nanoTime();
      boolean converged = t > 1 && options.settled(previous, bound);
      if (!converged && t < options.maxIterations()) {
        toCovariances(userVariance, users, d, userCovariance);
        VariationalEm.updateMeanAndCovariance(users, d, lambda, userCovariance, mean, covariance);
        double[] zero = new double[d];
        double[] precision = ModelParameters.identity(d);
        for (int s = 0; s < d; s++) {
          precision[s * d + s] = 1 / priorVariance;
        }
        VariationalEm.parallel(
            pool,
            threads,
            items,
            (worker, item) -> {
              int[] chosen = itemChoices[worker];
              for (int u = 0; u < users; u++) {
                chosen[u] = data.choice(u, item);
              }
              itemWorkers[worker].maximise(
                  itemLayout,
                  psi,
                  embeddingVariance,
                  item * choiceCount * d,
                  lambda,
                  userVariance,
                  chosen,
                  zero,
                  precision,
                  options.embeddingSteps());
            });
        priorVariance = priorVariance(psi, embeddingVariance);
      }
      VariationalEm.Iteration iteration =
          new VariationalEm.Iteration(
              t, bound, (afterEStep - start) * 1e-9, (System.nanoTime() - afterEStep) * 1e-9);
      iterations.add(iteration);
      progress.accept(iteration);
      previous = bound;
      if (converged) {
        break;
      }
    }
    toCovariances(userVariance, users, d, userCovariance);
    SynthModel model = new SynthModel(items, choiceCount, d, mean, covariance, psi);
    return new VariationalEm.Result(model, iterations, lambda, userCovariance);
  }

  /**
   * The β part of the bound: Σ_ik [−(|ψ_ik|² + tr W_ik)/(2γ²) + ½ log|W_ik| − (d/2) log γ² + d/2].
   */
  static double embeddingTerms(
      double[] psi, double[] embeddingVariance, double priorVariance, int latent) {
    double total = 0;
    for (int j = 0; j < psi.length; j++) {
      double w = embeddingVariance[j];
      total +=
          -(psi[j] * psi[j] + w) / (2 * priorVariance)
              + 0.5 * Math.log(w)
              - 0.5 * Math.log(priorVariance)
              + 0.5;
    }
    return total;
  }

  /**
   * γ² = Σ_ik (|ψ_ik|² + tr W_ik) / (I K d) (§5.4.2), the argmax of {@link #embeddingTerms} in γ².
   */
  static double priorVariance(double[] psi, double[] embeddingVariance) {
    double total = 0;
    for (int j = 0; j < psi.length; j++) {
      total += psi[j] * psi[j] + embeddingVariance[j];
    }
    return total / psi.length;
  }

  private static void toCovariances(double[] variance, int users, int d, double[] covariance) {
    java.util.Arrays.fill(covariance, 0);
    for (int u = 0; u < users; u++) {
      for (int s = 0; s < d; s++) {
        covariance[u * d * d + s * d + s] = variance[u * d + s];
      }
    }
  }
}
