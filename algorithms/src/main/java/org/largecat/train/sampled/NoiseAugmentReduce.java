package org.largecat.train.sampled;

import org.largecat.eval.NoiseDistribution;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.SpecialFunctions;
import org.largecat.model.Link;
import org.largecat.special.Logistic;

/**
 * Multinomial probit and logistic A&R (Algorithm 2). Each example keeps q(ε_n) with location μ_n
 * and scale softplus(γ_n) (§4): Gaussian for probit, logistic for the multinomial logistic. Eq. 7's
 * bound is L = E_q[log f(ε) + Σ_{k≠y} log F(ε + ψ_y − ψ_k)] + H[q].
 *
 * <p>Local step: one draw ε = μ + σu, u from the standard noise, and the reparameterisation
 * gradient of Eq. 9 with the sampled log-joint estimate: ∂/∂ε = (log f)'(ε) + Σ_S w_j h(ε + ψ_y −
 * ψ_k), h = f/F, w_j = (K−1)/|S| for uniform S; ∂/∂μ = ∂/∂ε, ∂/∂σ = u·∂/∂ε + 1/σ (∇H = 1/σ for both
 * families), ∂/∂γ = σ'(γ)·∂/∂σ, taken with α = 0.01(1 + v)^−0.9, v the visits to example n so far
 * (see {@link SoftmaxAugmentReduce} on why v and not the global t).
 *
 * <p>Global step: ∂/∂ψ_k = −w_j·E_q[h(ε + ψ_y − ψ_k)] for sampled k, minus their sum for y, with
 * the expectation under the updated q taken by a fixed quadrature rule over u (see {@link #STEP})
 * instead of Algorithm 2's one draw of ε. Its mean is the same gradient of Eq. 7; the draw's noise
 * is what slowed the weights: once q_n nears the posterior p(ε_n | y_n, ψ), most draws give h ≈ 0
 * for a class the model already ranks below y and a rare draw in the lower tail a large one, and
 * the adaptive step, scaled by the running mean of g², then takes short steps. The returned bound
 * is Eq. 7's expectation by the same rule at q before the local step, so it is exact for the
 * sampled S rather than a one-draw estimate. Everything goes through log F and h, which the kernels
 * give accurately in both tails, so no term overflows.
 */
final class NoiseAugmentReduce extends SampledBound {
  private static final double HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

  /** softplus⁻¹(1): every q starts with unit scale. */
  private static final double UNIT_SCALE_GAMMA = Math.log(Math.E - 1);

  /**
   * The quadrature rule for E[g(μ + σu)], u from the standard noise: u = a·sinh(t) with t on a grid
   * of step {@link #STEP} over [−T, T], weights f(u_i)·cosh(t_i) normalised to sum 1 (the trapezoid
   * rule in t). The map keeps the nodes dense where f has its mass and reaches the tails in a few
   * nodes, where the trapezoid rule in u needed 43 (Gaussian) and 145 (logistic). Against adaptive
   * quadrature, for g = h or log F with μ in {−2, 0, 2, 5}, ψ_y − ψ_k in [−10, 10] and σ ≤ 1 (the
   * optimal Gaussian q of a probit posterior has 1/σ² = 1 + E_q[−(log F)''] ≥ 1), the absolute
   * error is below 2e-9 (Gaussian: a = 2, T = 1.8, 19 nodes) and 6e-8 (logistic: a = π, T = 2.4, 25
   * nodes); at σ = 3 it is 1e-5 and 1e-4, far below the sampled gradient's own noise
   * (bench/src/main/python/ar_quadrature_error.py prints these).
   */
  private static final double STEP = 0.2;

  private final NoiseDistribution noise;
  private final double[] nodes;
  private final double[] nodeWeights;
  private final double[] location;
  private final double[] scaleParameter;
  private final LocalStepSize steps;

  NoiseAugmentReduce(Link link, int examples) {
    if (link == Link.SOFTMAX) {
      throw new IllegalArgumentException("softmax A&R has its own closed-form local step");
    }
    this.noise = NoiseDistribution.of(link);
    boolean gaussian = noise == NoiseDistribution.GAUSSIAN;
    double scale = gaussian ? 2 : Math.PI;
    int half = gaussian ? 9 : 12;
    this.nodes = new double[2 * half + 1];
    this.nodeWeights = new double[nodes.length];
    double total = 0;
    for (int i = 0; i < nodes.length; i++) {
      double t = (i - half) * STEP;
      nodes[i] = scale * Math.sinh(t);
      nodeWeights[i] = Math.exp(noise.logDensity(nodes[i])) * Math.cosh(t);
      total += nodeWeights[i];
    }
    for (int i = 0; i < nodes.length; i++) {
      nodeWeights[i] /= total;
    }
    this.location = new double[examples];
    this.scaleParameter = new double[examples];
    this.steps = new LocalStepSize(examples, 0.01);
    java.util.Arrays.fill(scaleParameter, UNIT_SCALE_GAMMA);
  }

  @Override
  Worker worker(Kernels kernels, int slots) {
    SpecialFunctions special = kernels.specialFunctions();
    int grid = Math.multiplyExact(nodes.length, slots);
    double[] z = new double[grid];
    double[] work = new double[grid];
    return (n, scores, s, weight, logWeight, coef, random) -> {
      double mu = location[n];
      double gamma = scaleParameter[n];
      double sigma = Logistic.softplus(gamma);
      int cells = nodeMargins(mu, sigma, scores, s, z);
      special.apply(noise.logCdfFunction(), cells, z, 0, work, 0);
      double bound = entropy(sigma);
      for (int i = 0; i < nodes.length; i++) {
        bound +=
            nodeWeights[i]
                * (noise.logDensity(mu + sigma * nodes[i]) + weightedSum(weight, work, i * s, s));
      }

      double u = standardDraw(random);
      double eps = mu + sigma * u;
      shiftedMargins(eps, scores, s, z, 0);
      noise.hazards(special, s, z, work);
      double dEps = dLogPdf(eps) + weightedSum(weight, work, 0, s);
      double alpha = steps.alpha(steps.next(n));
      double sigmoidGamma = Math.exp(Logistic.logSigmoid(gamma));
      location[n] = mu + alpha * dEps;
      scaleParameter[n] = gamma + alpha * (u * dEps + 1 / sigma) * sigmoidGamma;

      cells = nodeMargins(location[n], Logistic.softplus(scaleParameter[n]), scores, s, z);
      noise.hazards(special, cells, z, work);
      double total = 0;
      for (int j = 0; j < s; j++) {
        double expected = 0;
        for (int i = 0; i < nodes.length; i++) {
          expected += nodeWeights[i] * work[i * s + j];
        }
        double c = weight[j] * expected;
        coef[j + 1] = (float) -c;
        total += c;
      }
      coef[0] = (float) total;
      return bound;
    };
  }

  /** z[i·s + j] = μ + σu_i + ψ_y − ψ_{k_j} for every node u_i; returns the cells filled. */
  private int nodeMargins(double mu, double sigma, double[] scores, int s, double[] z) {
    for (int i = 0; i < nodes.length; i++) {
      shiftedMargins(mu + sigma * nodes[i], scores, s, z, i * s);
    }
    return nodes.length * s;
  }

  /** z[off + j] = ε + ψ_y − ψ_{k_j}. */
  private static void shiftedMargins(double eps, double[] scores, int s, double[] z, int off) {
    double shift = eps + scores[0];
    for (int j = 0; j < s; j++) {
      z[off + j] = shift - scores[j + 1];
    }
  }

  /** Σ_j w_j v[off + j]. */
  private static double weightedSum(double[] weight, double[] v, int off, int n) {
    double total = 0;
    for (int j = 0; j < n; j++) {
      total += weight[j] * v[off + j];
    }
    return total;
  }

  private double standardDraw(CounterRandom random) {
    if (noise == NoiseDistribution.GAUSSIAN) {
      return random.nextGaussian();
    }
    double v = random.nextDouble(Double.MIN_NORMAL, 1.0);
    return Math.log(v) - Math.log1p(-v);
  }

  private double dLogPdf(double eps) {
    return noise == NoiseDistribution.GAUSSIAN ? -eps : -Math.tanh(0.5 * eps);
  }

  /** H[q] of the Gaussian N(μ, σ²) or of the logistic with scale σ. */
  private double entropy(double sigma) {
    return Math.log(sigma) + (noise == NoiseDistribution.GAUSSIAN ? HALF_LOG_TWO_PI + 0.5 : 2);
  }
}
