package org.largecat.synth;

import org.largecat.kernel.MatrixOps;

/**
 * One thread's M-step for the embeddings B_i = (β_i1, ..., β_iK) of one item at a time. Given the
 * users' q(z_u) = N(λ_u, V_u), the bound's B-dependent part is separable by item and concave:
 *
 * <pre>
 *   F_i(B_i) = Σ_u [ λ_u'β_{i,x_ui} − log Σ_k exp(λ_u'β_ik + ½β_ik'V_uβ_ik) ] − ½ τ Σ_k |β_ik|²
 * </pre>
 *
 * with gradient (§3) Σ_u (x_uik λ_u − π̃_uik (λ_u + V_uβ_ik)) − τβ_ik. τ = 1 is a N(0, I) prior on each
 * β_ik (MAP), which keeps a choice nobody made finite and is negligible against thousands of users.
 * There is no closed form (§3): each step is block-diagonal Newton — the exact d x d diagonal block
 * Σ_u [π̃(1−π̃) r r' + π̃ V_u] + τI (r = λ_u + V_uβ_ik) per choice, the cross-choice blocks left out —
 * with backtracking, so F_i never decreases; it stops after {@code maxSteps} steps or when a step
 * gains less than {@code tolerance} relative to |F_i|.
 */
final class EmbeddingUpdate {
  static final double PRIOR_PRECISION = 1;
  private static final int MAX_HALVINGS = 30;

  private final MatrixOps matrixOps;
  private final int choiceCount;
  private final int latent;
  private final int maxSteps;
  private final double tolerance;
  private final double[] block;
  private final double[] original;
  private final double[] step;
  private final double[] gradient;
  private final double[] blockHessians;
  private final double[] covarianceTimesEmbedding;
  private final double[] logMoment;
  private final double[] weight;

  EmbeddingUpdate(int choiceCount, int latent, int maxSteps, double tolerance, MatrixOps matrixOps) {
    this.matrixOps = matrixOps;
    this.choiceCount = choiceCount;
    this.latent = latent;
    this.maxSteps = maxSteps;
    this.tolerance = tolerance;
    block = new double[choiceCount * latent];
    original = new double[choiceCount * latent];
    step = new double[choiceCount * latent];
    gradient = new double[choiceCount * latent];
    blockHessians = new double[choiceCount * latent * latent];
    covarianceTimesEmbedding = new double[choiceCount * latent];
    logMoment = new double[choiceCount];
    weight = new double[choiceCount];
  }

  /**
   * Improves item {@code item}'s rows of {@code embeddings} in place. With one point per user (λ_u, V_u)
   * F_i is the ζ bound's part above; with draws z_us ~ q(z_u) (V = 0 at each) it is the Monte Carlo
   * estimate of E_q log p(x_ui | z_u) that §5.1 uses with one draw, each term weighted by the point's
   * weight. A diagonal V_u makes V_uβ cost d instead of d². Returns F_i after the update.
   */
  double update(int item, double[] embeddings, ChoiceData data, PosteriorPoints points) {
    int rowOff = item * choiceCount * latent;
    System.arraycopy(embeddings, rowOff, block, 0, block.length);
    double current = objective(item, data, points, true);
    for (int iteration = 0; iteration < maxSteps; iteration++) {
      for (int k = 0; k < choiceCount; k++) {
        int hOff = k * latent * latent;
        for (int s = 0; s < latent; s++) {
          blockHessians[hOff + s * latent + s] += PRIOR_PRECISION;
          gradient[k * latent + s] -= PRIOR_PRECISION * block[k * latent + s];
        }
        matrixOps.choleskyFactor(latent, blockHessians, hOff, latent);
        System.arraycopy(gradient, k * latent, step, k * latent, latent);
        matrixOps.choleskySolve(latent, 1, blockHessians, hOff, latent, step, k * latent, 1);
      }
      System.arraycopy(block, 0, original, 0, block.length);
      double next = Double.NEGATIVE_INFINITY;
      double scale = 1;
      for (int halving = 0; halving < MAX_HALVINGS; halving++, scale *= 0.5) {
        for (int j = 0; j < block.length; j++) {
          block[j] = original[j] + scale * step[j];
        }
        next = objective(item, data, points, false);
        if (next >= current) {
          break;
        }
      }
      if (!(next >= current)) {
        System.arraycopy(original, 0, block, 0, block.length);
        break;
      }
      boolean converged = next - current <= tolerance * Math.abs(next);
      current = next;
      if (converged || iteration == maxSteps - 1) {
        break;
      }
      objective(item, data, points, true);
    }
    System.arraycopy(block, 0, embeddings, rowOff, block.length);
    return current;
  }

  /** F_i at {@code block}; with {@code derivatives}, also the gradient and the d x d diagonal Hessian blocks. */
  private double objective(int item, ChoiceData data, PosteriorPoints posterior, boolean derivatives) {
    double[] lambda = posterior.points();
    double[] covariance = posterior.covariance();
    boolean diagonal = posterior.diagonal();
    int pointsPerUser = posterior.pointsPerUser();
    if (derivatives) {
      java.util.Arrays.fill(gradient, 0);
      java.util.Arrays.fill(blockHessians, 0);
    }
    double total = 0;
    int dd = latent * latent;
    int pointCount = data.users() * pointsPerUser;
    for (int point = 0; point < pointCount; point++) {
      int lamOff = point * latent;
      int covOff = point * dd;
      double largest = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < choiceCount; k++) {
        int row = k * latent;
        double linear = 0;
        double quadratic = 0;
        for (int s = 0; s < latent; s++) {
          double vb;
          if (covariance == null) {
            vb = 0;
          } else if (diagonal) {
            vb = covariance[covOff + s * latent + s] * block[row + s];
          } else {
            vb = 0;
            for (int t = 0; t < latent; t++) {
              vb += covariance[covOff + s * latent + t] * block[row + t];
            }
          }
          covarianceTimesEmbedding[row + s] = vb;
          linear += lambda[lamOff + s] * block[row + s];
          quadratic += block[row + s] * vb;
        }
        logMoment[k] = linear + 0.5 * quadratic;
        largest = Math.max(largest, logMoment[k]);
      }
      double sum = 0;
      for (int k = 0; k < choiceCount; k++) {
        weight[k] = Math.exp(logMoment[k] - largest);
        sum += weight[k];
      }
      int chosen = data.choice(point / pointsPerUser, item);
      double pointWeight = posterior.weight(point);
      double observedLinear = 0;
      for (int s = 0; s < latent; s++) {
        observedLinear += lambda[lamOff + s] * block[chosen * latent + s];
      }
      total += pointWeight * (observedLinear - largest - Math.log(sum));
      if (derivatives) {
        accumulateDerivatives(point, chosen, lambda, covariance, diagonal, pointWeight, 1 / sum);
      }
    }
    double prior = 0;
    for (double b : block) {
      prior += b * b;
    }
    return total - 0.5 * PRIOR_PRECISION * prior;
  }

  private void accumulateDerivatives(int point, int chosen, double[] lambda, double[] covariance, boolean diagonal,
      double pointWeight, double inverseSum) {
    int lamOff = point * latent;
    int covOff = point * latent * latent;
    for (int s = 0; s < latent; s++) {
      gradient[chosen * latent + s] += pointWeight * lambda[lamOff + s];
    }
    for (int k = 0; k < choiceCount; k++) {
      double pi = pointWeight * weight[k] * inverseSum;
      double probability = weight[k] * inverseSum;
      if (pi < 1e-300) {
        continue;
      }
      int row = k * latent;
      int hOff = k * latent * latent;
      double curvature = pi * (1 - probability);
      for (int s = 0; s < latent; s++) {
        double rs = lambda[lamOff + s] + covarianceTimesEmbedding[row + s];
        gradient[row + s] -= pi * rs;
        for (int t = 0; t <= s; t++) {
          double rt = lambda[lamOff + t] + covarianceTimesEmbedding[row + t];
          double cov = covariance == null ? 0 : diagonal ? (s == t ? covariance[covOff + s * latent + s] : 0)
              : covariance[covOff + s * latent + t];
          blockHessians[hOff + s * latent + t] += curvature * rs * rt + pi * cov;
        }
      }
    }
  }
}
