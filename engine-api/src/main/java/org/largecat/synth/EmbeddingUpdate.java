package org.largecat.synth;

import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.MatrixOps;
import org.largecat.kernel.SpecialFunctions;

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
  private static final int CHUNK = 512;

  private final MatrixOps matrixOps;
  private final SpecialFunctions specialFunctions;
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
  private final double[] linear;
  private final double[] logMoment;
  private final double[] probability;
  private final double[] residual;
  private final double[] shift;
  private final double[] scaledRows;

  EmbeddingUpdate(int choiceCount, int latent, int maxSteps, double tolerance, Kernels kernels) {
    this.matrixOps = kernels.matrixOps();
    this.specialFunctions = kernels.specialFunctions();
    this.choiceCount = choiceCount;
    this.latent = latent;
    this.maxSteps = maxSteps;
    this.tolerance = tolerance;
    block = new double[choiceCount * latent];
    original = new double[choiceCount * latent];
    step = new double[choiceCount * latent];
    gradient = new double[choiceCount * latent];
    blockHessians = new double[choiceCount * latent * latent];
    covarianceTimesEmbedding = new double[CHUNK * choiceCount * latent];
    linear = new double[CHUNK * choiceCount];
    logMoment = new double[CHUNK * choiceCount];
    probability = new double[CHUNK * choiceCount];
    residual = new double[CHUNK * choiceCount];
    shift = new double[CHUNK];
    scaledRows = new double[CHUNK * latent];
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

  /**
   * F_i at {@code block}; with {@code derivatives}, also the gradient and the lower triangles of the
   * d x d diagonal Hessian blocks. Points go through in chunks: their K utilities λ'β_ik as one gemm,
   * the exponentials as one batched exp, the gradient's data part as one gemm and each block as one syrk
   * of the rows sqrt(w π̃(1−π̃)) r.
   */
  private double objective(int item, ChoiceData data, PosteriorPoints posterior, boolean derivatives) {
    if (derivatives) {
      java.util.Arrays.fill(gradient, 0);
      java.util.Arrays.fill(blockHessians, 0);
    }
    double[] points = posterior.points();
    double[] covariance = posterior.covariance();
    int pointCount = data.users() * posterior.pointsPerUser();
    double total = 0;
    for (int first = 0; first < pointCount; first += CHUNK) {
      int n = Math.min(CHUNK, pointCount - first);
      matrixOps.gemm(false, true, n, choiceCount, latent, 1, points, first * latent, latent, block, 0, latent, 0,
          linear, 0, choiceCount);
      for (int j = 0; j < n; j++) {
        int off = j * choiceCount;
        double largest = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < choiceCount; k++) {
          double a = linear[off + k];
          if (covariance != null) {
            a += 0.5 * multiplyCovariance(posterior, first + j, k, off + k);
          }
          logMoment[off + k] = a;
          largest = Math.max(largest, a);
        }
        shift[j] = largest;
        for (int k = 0; k < choiceCount; k++) {
          logMoment[off + k] -= largest;
        }
      }
      specialFunctions.apply(ElementwiseFunction.EXP, n * choiceCount, logMoment, 0, probability, 0);
      for (int j = 0; j < n; j++) {
        int off = j * choiceCount;
        double sum = 0;
        for (int k = 0; k < choiceCount; k++) {
          sum += probability[off + k];
        }
        double inverse = 1 / sum;
        for (int k = 0; k < choiceCount; k++) {
          probability[off + k] *= inverse;
        }
        int point = first + j;
        int chosen = data.choice(point / posterior.pointsPerUser(), item);
        double w = posterior.weight(point);
        total += w * (linear[off + chosen] - shift[j] - Math.log(sum));
        if (derivatives) {
          for (int k = 0; k < choiceCount; k++) {
            residual[off + k] = w * ((k == chosen ? 1 : 0) - probability[off + k]);
          }
        }
      }
      if (derivatives) {
        accumulateDerivatives(posterior, first, n);
      }
    }
    double prior = 0;
    for (double b : block) {
      prior += b * b;
    }
    return total - 0.5 * PRIOR_PRECISION * prior;
  }

  /** β_k'V β_k for the point's V, keeping V β_k in row {@code cell} of {@code covarianceTimesEmbedding}. */
  private double multiplyCovariance(PosteriorPoints posterior, int point, int k, int cell) {
    double[] covariance = posterior.covariance();
    int covOff = point * latent * latent;
    int row = k * latent;
    double quadratic = 0;
    for (int s = 0; s < latent; s++) {
      double vb;
      if (posterior.diagonal()) {
        vb = covariance[covOff + s * latent + s] * block[row + s];
      } else {
        vb = 0;
        for (int t = 0; t < latent; t++) {
          vb += covariance[covOff + s * latent + t] * block[row + t];
        }
      }
      covarianceTimesEmbedding[cell * latent + s] = vb;
      quadratic += block[row + s] * vb;
    }
    return quadratic;
  }

  /**
   * Adds one chunk's part of the gradient Σ (x − π̃) w λ − Σ w π̃ V β_k and of the blocks
   * Σ w [π̃(1−π̃) r r' + π̃ V], r = λ + V β_k (§3's gradient of (3) in β_ik; r = λ when V = 0).
   */
  private void accumulateDerivatives(PosteriorPoints posterior, int first, int n) {
    double[] points = posterior.points();
    double[] covariance = posterior.covariance();
    matrixOps.gemm(true, false, choiceCount, latent, n, 1, residual, 0, choiceCount, points, first * latent, latent,
        1, gradient, 0, latent);
    for (int k = 0; k < choiceCount; k++) {
      int hOff = k * latent * latent;
      for (int j = 0; j < n; j++) {
        int point = first + j;
        int cell = j * choiceCount + k;
        double pi = probability[cell];
        double w = posterior.weight(point);
        double root = Math.sqrt(w * pi * (1 - pi));
        for (int s = 0; s < latent; s++) {
          double r = points[point * latent + s];
          if (covariance != null) {
            double vb = covarianceTimesEmbedding[cell * latent + s];
            r += vb;
            gradient[k * latent + s] -= w * pi * vb;
          }
          scaledRows[j * latent + s] = root * r;
        }
        if (covariance != null) {
          int covOff = point * latent * latent;
          for (int s = 0; s < latent; s++) {
            for (int t = 0; t <= s; t++) {
              if (!posterior.diagonal() || s == t) {
                blockHessians[hOff + s * latent + t] += w * pi * covariance[covOff + s * latent + t];
              }
            }
          }
        }
      }
      matrixOps.syrk(true, latent, n, 1, scaledRows, 0, latent, 1, blockHessians, hOff, latent);
    }
  }
}
