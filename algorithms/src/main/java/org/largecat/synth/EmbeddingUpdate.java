package org.largecat.synth;

import org.largecat.MemoryBudget;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.MatrixOps;
import org.largecat.kernel.SpecialFunctions;

/**
 * One thread's M-step for the embeddings B_i = (β_i1, ..., β_iK) of one item at a time. Given the
 * users' q(z_u) = N(λ_u, diag(v_u)), the bound's B-dependent part is separable by item and concave:
 *
 * <pre>
 *   F_i(B_i) = Σ_u [ λ_u'β_{i,x_ui} − log Σ_k exp(λ_u'β_ik + ½ Σ_s v_us β_iks²) ] − ½ τ Σ_k |β_ik|²
 * </pre>
 *
 * with gradient (§3) Σ_u (x_uik λ_u − π̃_uik (λ_u + v_u ∘ β_ik)) − τβ_ik; with draws z_us of q
 * instead of (λ_u, v_u) (v = 0, weights w_us) it is the Monte Carlo estimate of E_q log p(x_ui |
 * z_u) that §5.1 uses with one draw. τ = 1 is a N(0, I) prior on each β_ik (MAP), which keeps a
 * choice nobody made finite and is negligible against thousands of users. There is no closed form
 * (§3): each step is block-diagonal Newton — the exact d x d diagonal block Σ_u w [π̃(1−π̃) r r' +
 * π̃ diag(v_u)] + τI (r = λ_u + v_u ∘ β_ik) per choice, the cross-choice blocks left out — with
 * backtracking, so F_i never decreases; it stops after {@code maxSteps} steps or when a step gains
 * less than {@code tolerance} relative to |F_i|. Points go through in chunks on the SPI: all K
 * log-moments of a chunk as one gemm of the rows [λ, v] against the feature rows [β_k, ½β_k²], one
 * batched exp, the gradient as two gemms, and per choice one syrk of the rows sqrt(w π̃(1−π̃)) [λ,
 * v], from whose second moments the blocks follow (r r' = λλ' + λ(v∘β)' + (v∘β)λ' + (v∘β)(v∘β)').
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
  private final double[] blockFeatures;
  private final double[] original;
  private final double[] step;
  private final double[] gradient;
  private final double[] varianceSums;
  private final double[] moments;
  private final double[] blockHessians;
  private final double[] logMoment;
  private final double[] probability;
  private final double[] residual;
  private final double[] weighted;
  private final double[] shift;
  private final double[] scaledRows;

  /**
   * The bytes of one workspace for these dimensions, refusing one whose largest arrays, K × 2d × 2d
   * and {@value #CHUNK} × K, could not be allocated.
   */
  static long workspaceBytes(int choiceCount, int latent) {
    MemoryBudget.arrayLength(
        "the M-step's moments, K × 2d × 2d", Double.BYTES, choiceCount, 2L * latent, 2L * latent);
    MemoryBudget.arrayLength(
        "the M-step's chunk, " + CHUNK + " × K", Double.BYTES, CHUNK, choiceCount);
    long d = latent;
    return Double.BYTES * (long) choiceCount * (7 * d + 5 * d * d + 4L * CHUNK);
  }

  EmbeddingUpdate(int choiceCount, int latent, int maxSteps, double tolerance, Kernels kernels) {
    this.matrixOps = kernels.matrixOps();
    this.specialFunctions = kernels.specialFunctions();
    this.choiceCount = choiceCount;
    this.latent = latent;
    this.maxSteps = maxSteps;
    this.tolerance = tolerance;
    int width = 2 * latent;
    block = new double[choiceCount * latent];
    blockFeatures = new double[choiceCount * width];
    original = new double[choiceCount * latent];
    step = new double[choiceCount * latent];
    gradient = new double[choiceCount * latent];
    varianceSums = new double[choiceCount * latent];
    moments = new double[choiceCount * width * width];
    blockHessians = new double[choiceCount * latent * latent];
    logMoment = new double[CHUNK * choiceCount];
    probability = new double[CHUNK * choiceCount];
    residual = new double[CHUNK * choiceCount];
    weighted = new double[CHUNK * choiceCount];
    shift = new double[CHUNK];
    scaledRows = new double[CHUNK * width];
  }

  /**
   * Improves item {@code item}'s rows of {@code embeddings} in place; returns F_i after the update.
   */
  double update(int item, double[] embeddings, ChoiceData data, PosteriorPoints points) {
    int rowOff = item * choiceCount * latent;
    System.arraycopy(embeddings, rowOff, block, 0, block.length);
    double current = objective(item, data, points, true);
    for (int iteration = 0; iteration < maxSteps; iteration++) {
      for (int k = 0; k < choiceCount; k++) {
        int hOff = k * latent * latent;
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
   * F_i at {@code block}; with {@code derivatives}, also the gradient and the lower triangles of
   * the d x d diagonal Hessian blocks (prior included).
   */
  private double objective(
      int item, ChoiceData data, PosteriorPoints posterior, boolean derivatives) {
    int width = posterior.width();
    int featureWidth = 2 * latent;
    for (int k = 0; k < choiceCount; k++) {
      for (int s = 0; s < latent; s++) {
        double b = block[k * latent + s];
        blockFeatures[k * featureWidth + s] = b;
        blockFeatures[k * featureWidth + latent + s] = 0.5 * b * b;
      }
    }
    if (derivatives) {
      java.util.Arrays.fill(gradient, 0);
      java.util.Arrays.fill(varianceSums, 0);
      java.util.Arrays.fill(moments, 0);
    }
    double[] rows = posterior.rows();
    int pointCount = data.users() * posterior.pointsPerUser();
    double total = 0;
    for (int first = 0; first < pointCount; first += CHUNK) {
      int n = Math.min(CHUNK, pointCount - first);
      matrixOps.gemm(
          false,
          true,
          n,
          choiceCount,
          width,
          1,
          rows,
          first * width,
          width,
          blockFeatures,
          0,
          featureWidth,
          0,
          logMoment,
          0,
          choiceCount);
      for (int j = 0; j < n; j++) {
        int off = j * choiceCount;
        double largest = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < choiceCount; k++) {
          largest = Math.max(largest, logMoment[off + k]);
        }
        shift[j] = largest;
        for (int k = 0; k < choiceCount; k++) {
          logMoment[off + k] -= largest;
        }
      }
      specialFunctions.apply(
          ElementwiseFunction.EXP, n * choiceCount, logMoment, 0, probability, 0);
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
        double linear = 0;
        for (int s = 0; s < latent; s++) {
          linear += rows[point * width + s] * block[chosen * latent + s];
        }
        double w = posterior.weight(point);
        total += w * (linear - shift[j] - Math.log(sum));
        if (derivatives) {
          for (int k = 0; k < choiceCount; k++) {
            weighted[off + k] = w * probability[off + k];
            residual[off + k] = (k == chosen ? w : 0) - weighted[off + k];
          }
        }
      }
      if (derivatives) {
        accumulateDerivatives(posterior, first, n);
      }
    }
    if (derivatives) {
      assembleBlocks(width);
    }
    double prior = 0;
    for (double b : block) {
      prior += b * b;
    }
    return total - 0.5 * PRIOR_PRECISION * prior;
  }

  /**
   * Adds one chunk's Σ w (x − π̃) λ to the gradient, Σ w π̃ v to {@code varianceSums} and, per
   * choice, the second moments Σ w π̃(1−π̃) [λ, v][λ, v]' (lower triangle) to {@code moments}.
   */
  private void accumulateDerivatives(PosteriorPoints posterior, int first, int n) {
    double[] rows = posterior.rows();
    int width = posterior.width();
    matrixOps.gemm(
        true,
        false,
        choiceCount,
        latent,
        n,
        1,
        residual,
        0,
        choiceCount,
        rows,
        first * width,
        width,
        1,
        gradient,
        0,
        latent);
    if (width > latent) {
      matrixOps.gemm(
          true,
          false,
          choiceCount,
          latent,
          n,
          1,
          weighted,
          0,
          choiceCount,
          rows,
          first * width + latent,
          width,
          1,
          varianceSums,
          0,
          latent);
    }
    for (int k = 0; k < choiceCount; k++) {
      for (int j = 0; j < n; j++) {
        int cell = j * choiceCount + k;
        double root = Math.sqrt(weighted[cell] * (1 - probability[cell]));
        int rowOff = (first + j) * width;
        for (int a = 0; a < width; a++) {
          scaledRows[j * width + a] = root * rows[rowOff + a];
        }
      }
      matrixOps.syrk(true, width, n, 1, scaledRows, 0, width, 1, moments, k * width * width, width);
    }
  }

  /**
   * Finishes the gradient (−β_k ∘ Σ w π̃ v, −τβ_k) and builds each block's lower triangle from the
   * moments: H_st = S_λsλt + S_λsvt β_t + S_λtvs β_s + S_vsvt β_s β_t + δ_st (Σ w π̃ v_s + τ).
   */
  private void assembleBlocks(int width) {
    for (int k = 0; k < choiceCount; k++) {
      int mOff = k * width * width;
      int hOff = k * latent * latent;
      for (int s = 0; s < latent; s++) {
        double bs = block[k * latent + s];
        gradient[k * latent + s] -= bs * varianceSums[k * latent + s] + PRIOR_PRECISION * bs;
        for (int t = 0; t <= s; t++) {
          double value = moments[mOff + s * width + t];
          if (width > latent) {
            double bt = block[k * latent + t];
            value +=
                moments[mOff + (latent + t) * width + s] * bt
                    + moments[mOff + (latent + s) * width + t] * bs
                    + moments[mOff + (latent + s) * width + latent + t] * bs * bt;
          }
          if (s == t) {
            value += varianceSums[k * latent + s] + PRIOR_PRECISION;
          }
          blockHessians[hOff + s * latent + t] = value;
        }
      }
    }
  }
}
