package org.largecat.synth;

import org.largecat.kernel.MatrixOps;

/**
 * One thread's coordinate step of §5.4 of the synthetic-categorical-data paper, where both z_u and
 * β_ik have Gaussian q's with diagonal covariances: it maximises over some of those q's, the others
 * ("partners") fixed,
 *
 * <pre>
 *   F = Σ_t [ m_{b(c*_t)}' p_{c*_t} − log Σ_{k<K} exp(a_tk) ] + Σ_b [ −½(m_b − μ0)'P(m_b − μ0) − ½ Σ_s P_ss r_bs + ½ Σ_s log r_bs ],
 *   a_tk = Σ_s log f(m_{b(k),s}, r_{b(k),s}, p_{tk,s}, q_{tk,s})        (f of §5.4.3, {@link GaussianMoment})
 * </pre>
 *
 * over blocks b of means m_b and variances r_b (d each); each term t is a log-sum-exp over its K
 * cells, cell k bound to block b(k) and to a partner row (p, q), and c*_t is the cell chosen. The
 * two steps of {@link BetaPriorEm} are this F: the E-step for user u (one block (λ_u, v_u), terms =
 * items, partners (ψ_ik, w_ik), P = Σ⁻¹, μ0 = μ), and the B-step for item i (blocks k = (ψ_ik,
 * w_ik), terms = users, partner (λ_u, v_u) for every cell of user u, P = I/γ², μ0 = 0). Each
 * log-sum-exp is the bound's E_q log b_ui ≤ log E_q b_ui with ζ_ui at its closed form, one ζ per
 * (user, item) as {@link UserPosterior} has it (tighter than §5.4.1's one ζ_u per user; note also
 * that §5.4.2's ζ̂_u carries a spurious minus sign: ζ̂ = Σ_ik Π_s f / I > 0). F is concave in (m,
 * r) (a log-sum-exp of convex log-moments, plus concave terms) on its domain r_bs q_s < 1, outside
 * which f diverges and F = −∞.
 *
 * <p>Optimiser: Newton in (m, log r), exact within each block and block-diagonal across blocks (as
 * {@link EmbeddingUpdate}); where ∂²F/∂(log r)² is not negative its r ∂F/∂r part is dropped, so
 * every step is uphill; a step is halved until F does not decrease, so an infeasible point (1 − r q
 * ≤ 0 for some cell) is never accepted: F stays finite from a finite start.
 */
final class MeanFieldNewton {
  private static final int MAX_HALVINGS = 40;
  private static final double MAX_LOG_STEP = 3;

  /**
   * Which partner row and block each cell takes: cell k of term t uses partner row {@code t *
   * termStride + k * cellStride} and block {@code k * blockStride}.
   */
  record Layout(int terms, int blocks, int termStride, int cellStride, int blockStride) {}

  private final MatrixOps matrixOps;
  private final int choiceCount;
  private final int latent;
  private final double tolerance;
  private final double[] cellDerivatives;
  private final double[] logMoment;
  private final double[] weight;
  private final double[] termMean;
  private final double[] gradient;
  private final double[] hessian;
  private final double[] step;
  private final double[] savedMean;
  private final double[] savedVariance;

  /**
   * Workspace for up to {@code maxBlocks} blocks; {@code tolerance} is the relative Newton
   * decrement that ends a solve.
   */
  MeanFieldNewton(
      int choiceCount, int latent, int maxBlocks, double tolerance, MatrixOps matrixOps) {
    this.matrixOps = matrixOps;
    this.choiceCount = choiceCount;
    this.latent = latent;
    this.tolerance = tolerance;
    int width = 2 * latent;
    cellDerivatives = new double[choiceCount * latent * GaussianMoment.COUNT];
    logMoment = new double[choiceCount];
    weight = new double[choiceCount];
    termMean = new double[maxBlocks * width];
    gradient = new double[maxBlocks * width];
    hessian = new double[maxBlocks * width * width];
    step = new double[maxBlocks * width];
    savedMean = new double[maxBlocks * latent];
    savedVariance = new double[maxBlocks * latent];
  }

  /**
   * Newton steps on the blocks' means ({@code mean[meanOff..]}) and variances ({@code
   * variance[meanOff..]}), in place, at most {@code maxSteps}; returns F there (never below F at
   * the start).
   *
   * @throws IllegalStateException if F is not finite at the start: some 1 − r q ≤ 0 (f diverges)
   */
  double maximise(
      Layout layout,
      double[] mean,
      double[] variance,
      int meanOff,
      double[] partnerMean,
      double[] partnerVariance,
      int[] chosen,
      double[] priorMean,
      double[] priorPrecision,
      int maxSteps) {
    double value =
        objective(
            layout,
            mean,
            variance,
            meanOff,
            partnerMean,
            partnerVariance,
            chosen,
            priorMean,
            priorPrecision);
    if (!Double.isFinite(value)) {
      throw new IllegalStateException(
          "§5.4 bound is "
              + value
              + " at the start of a coordinate step: some"
              + " 1 − v w <= 0 (E exp(z'β) diverges) or a variance is not positive");
    }
    int n = layout.blocks() * latent;
    int width = 2 * latent;
    for (int iteration = 0; iteration < maxSteps; iteration++) {
      derivatives(
          layout,
          mean,
          variance,
          meanOff,
          partnerMean,
          partnerVariance,
          chosen,
          priorMean,
          priorPrecision);
      double decrement = 0;
      double largestLogStep = 0;
      for (int b = 0; b < layout.blocks(); b++) {
        int hOff = b * width * width;
        matrixOps.choleskyFactor(width, hessian, hOff, width);
        System.arraycopy(gradient, b * width, step, b * width, width);
        matrixOps.choleskySolve(width, 1, hessian, hOff, width, step, b * width, 1);
        for (int a = 0; a < width; a++) {
          decrement += gradient[b * width + a] * step[b * width + a];
          if (a >= latent) {
            largestLogStep = Math.max(largestLogStep, Math.abs(step[b * width + a]));
          }
        }
      }
      if (!(decrement > 2 * tolerance * Math.max(1, Math.abs(value)))) {
        break;
      }
      System.arraycopy(mean, meanOff, savedMean, 0, n);
      System.arraycopy(variance, meanOff, savedVariance, 0, n);
      double scale = largestLogStep > MAX_LOG_STEP ? MAX_LOG_STEP / largestLogStep : 1;
      double next = Double.NEGATIVE_INFINITY;
      for (int halving = 0; halving < MAX_HALVINGS && !(next >= value); halving++, scale *= 0.5) {
        for (int b = 0; b < layout.blocks(); b++) {
          for (int s = 0; s < latent; s++) {
            int j = b * latent + s;
            mean[meanOff + j] = savedMean[j] + scale * step[b * width + s];
            variance[meanOff + j] =
                savedVariance[j] * Math.exp(scale * step[b * width + latent + s]);
          }
        }
        next =
            objective(
                layout,
                mean,
                variance,
                meanOff,
                partnerMean,
                partnerVariance,
                chosen,
                priorMean,
                priorPrecision);
      }
      if (!(next >= value)) {
        System.arraycopy(savedMean, 0, mean, meanOff, n);
        System.arraycopy(savedVariance, 0, variance, meanOff, n);
        break;
      }
      value = next;
    }
    return value;
  }

  /** F at the blocks' current means and variances; −∞ where some 1 − r q ≤ 0. */
  double objective(
      Layout layout,
      double[] mean,
      double[] variance,
      int meanOff,
      double[] partnerMean,
      double[] partnerVariance,
      int[] chosen,
      double[] priorMean,
      double[] priorPrecision) {
    double total = 0;
    for (int t = 0; t < layout.terms(); t++) {
      double largest = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < choiceCount; k++) {
        int own = meanOff + k * layout.blockStride() * latent;
        int partner = (t * layout.termStride() + k * layout.cellStride()) * latent;
        double a = 0;
        for (int s = 0; s < latent; s++) {
          a +=
              GaussianMoment.log(
                  mean[own + s],
                  variance[own + s],
                  partnerMean[partner + s],
                  partnerVariance[partner + s]);
        }
        if (a == Double.POSITIVE_INFINITY || Double.isNaN(a)) {
          return Double.NEGATIVE_INFINITY;
        }
        logMoment[k] = a;
        largest = Math.max(largest, a);
      }
      double sum = 0;
      for (int k = 0; k < choiceCount; k++) {
        sum += Math.exp(logMoment[k] - largest);
      }
      int c = chosen[t];
      int own = meanOff + c * layout.blockStride() * latent;
      int partner = (t * layout.termStride() + c * layout.cellStride()) * latent;
      for (int s = 0; s < latent; s++) {
        total += mean[own + s] * partnerMean[partner + s];
      }
      total -= largest + Math.log(sum);
    }
    for (int b = 0; b < layout.blocks(); b++) {
      int off = meanOff + b * latent;
      for (int s = 0; s < latent; s++) {
        double r = variance[off + s];
        if (!(r > 0)) {
          return Double.NEGATIVE_INFINITY;
        }
        double quadratic = 0;
        for (int t = 0; t < latent; t++) {
          quadratic += priorPrecision[s * latent + t] * (mean[off + t] - priorMean[t]);
        }
        total +=
            -0.5 * (mean[off + s] - priorMean[s]) * quadratic
                - 0.5 * priorPrecision[s * latent + s] * r
                + 0.5 * Math.log(r);
      }
    }
    return total;
  }

  /**
   * Per block, the gradient of F in (m, log r) into {@code gradient} and the lower triangle of the
   * (made positive definite, see the class comment) negative Hessian into {@code hessian}: Σ_t
   * [Σ_{k in b} π̃_tk (∇²a_tk + g_tk g_tk') − m_tb m_tb'] with g = ∇a, m_tb = Σ_{k in b} π̃_tk
   * g_tk, plus P and 1/(2r²) from the prior and entropy, then the change of variable r = e^ρ.
   */
  private void derivatives(
      Layout layout,
      double[] mean,
      double[] variance,
      int meanOff,
      double[] partnerMean,
      double[] partnerVariance,
      int[] chosen,
      double[] priorMean,
      double[] priorPrecision) {
    int width = 2 * latent;
    int blocks = layout.blocks();
    java.util.Arrays.fill(gradient, 0, blocks * width, 0);
    java.util.Arrays.fill(hessian, 0, blocks * width * width, 0);
    for (int t = 0; t < layout.terms(); t++) {
      double largest = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < choiceCount; k++) {
        int own = meanOff + k * layout.blockStride() * latent;
        int partner = (t * layout.termStride() + k * layout.cellStride()) * latent;
        double a = 0;
        for (int s = 0; s < latent; s++) {
          int dOff = (k * latent + s) * GaussianMoment.COUNT;
          GaussianMoment.derivatives(
              mean[own + s],
              variance[own + s],
              partnerMean[partner + s],
              partnerVariance[partner + s],
              cellDerivatives,
              dOff);
          a += cellDerivatives[dOff];
        }
        logMoment[k] = a;
        largest = Math.max(largest, a);
      }
      double sum = 0;
      for (int k = 0; k < choiceCount; k++) {
        weight[k] = Math.exp(logMoment[k] - largest);
        sum += weight[k];
      }
      java.util.Arrays.fill(termMean, 0, blocks * width, 0);
      for (int k = 0; k < choiceCount; k++) {
        double p = weight[k] / sum;
        int b = k * layout.blockStride();
        int gOff = b * width;
        int hOff = b * width * width;
        for (int s = 0; s < latent; s++) {
          int dOff = (k * latent + s) * GaussianMoment.COUNT;
          double gs = cellDerivatives[dOff + 1];
          double gv = cellDerivatives[dOff + 2];
          termMean[gOff + s] += p * gs;
          termMean[gOff + latent + s] += p * gv;
          gradient[gOff + s] -= p * gs;
          gradient[gOff + latent + s] -= p * gv;
          hessian[hOff + s * width + s] += p * cellDerivatives[dOff + 3];
          hessian[hOff + (latent + s) * width + s] += p * cellDerivatives[dOff + 4];
          hessian[hOff + (latent + s) * width + latent + s] += p * cellDerivatives[dOff + 5];
        }
        for (int x = 0; x < width; x++) {
          double gx = derivative(k, x);
          for (int y = 0; y <= x; y++) {
            hessian[hOff + x * width + y] += p * gx * derivative(k, y);
          }
        }
      }
      for (int b = 0; b < blocks; b++) {
        int gOff = b * width;
        int hOff = b * width * width;
        for (int x = 0; x < width; x++) {
          for (int y = 0; y <= x; y++) {
            hessian[hOff + x * width + y] -= termMean[gOff + x] * termMean[gOff + y];
          }
        }
      }
      int c = chosen[t];
      int partner = (t * layout.termStride() + c * layout.cellStride()) * latent;
      int gOff = c * layout.blockStride() * width;
      for (int s = 0; s < latent; s++) {
        gradient[gOff + s] += partnerMean[partner + s];
      }
    }
    for (int b = 0; b < blocks; b++) {
      int off = meanOff + b * latent;
      int gOff = b * width;
      int hOff = b * width * width;
      for (int s = 0; s < latent; s++) {
        double r = variance[off + s];
        for (int t = 0; t < latent; t++) {
          gradient[gOff + s] -= priorPrecision[s * latent + t] * (mean[off + t] - priorMean[t]);
          if (t <= s) {
            hessian[hOff + s * width + t] += priorPrecision[s * latent + t];
          }
        }
        gradient[gOff + latent + s] += -0.5 * priorPrecision[s * latent + s] + 0.5 / r;
        hessian[hOff + (latent + s) * width + latent + s] += 0.5 / (r * r);
      }
      for (int x = latent; x < width; x++) {
        double rx = variance[off + x - latent];
        for (int y = 0; y <= x; y++) {
          hessian[hOff + x * width + y] *= y >= latent ? rx * variance[off + y - latent] : rx;
        }
        gradient[gOff + x] *= rx;
        hessian[hOff + x * width + x] += Math.max(0, -gradient[gOff + x]);
      }
    }
  }

  /** Entry x of g = ∇a for cell k: ∂a/∂m_s for x = s < d, ∂a/∂r_s for x = d + s. */
  private double derivative(int k, int x) {
    int s = x < latent ? x : x - latent;
    return cellDerivatives[(k * latent + s) * GaussianMoment.COUNT + (x < latent ? 1 : 2)];
  }
}
