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
 * (see {@link SoftmaxAugmentReduce} on why v and not the global t). Global step: a fresh ε from the
 * updated q, and ∂/∂ψ_k = −w_j·h(ε + ψ_y − ψ_k) for sampled k, minus their sum for y. The returned
 * bound estimate uses the local step's draw. Everything goes through log F and h, which the kernels
 * give accurately in both tails, so no term overflows.
 */
final class NoiseAugmentReduce extends SampledBound {
  private static final double HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

  /** softplus⁻¹(1): every q starts with unit scale. */
  private static final double UNIT_SCALE_GAMMA = Math.log(Math.E - 1);

  private final NoiseDistribution noise;
  private final double[] location;
  private final double[] scaleParameter;
  private final LocalStepSize steps;

  NoiseAugmentReduce(Link link, int examples) {
    if (link == Link.SOFTMAX) {
      throw new IllegalArgumentException("softmax A&R has its own closed-form local step");
    }
    this.noise = NoiseDistribution.of(link);
    this.location = new double[examples];
    this.scaleParameter = new double[examples];
    this.steps = new LocalStepSize(examples, 0.01);
    java.util.Arrays.fill(scaleParameter, UNIT_SCALE_GAMMA);
  }

  @Override
  Worker worker(Kernels kernels, int slots) {
    SpecialFunctions special = kernels.specialFunctions();
    double[] z = new double[slots];
    double[] work = new double[slots];
    return (n, scores, s, weight, logWeight, coef, random) -> {
      double mu = location[n];
      double gamma = scaleParameter[n];
      double sigma = Logistic.softplus(gamma);
      double u = standardDraw(random);
      double eps = mu + sigma * u;
      shiftedMargins(eps, scores, s, z);
      noise.hazards(special, s, z, work);
      double hazardSum = weightedSum(weight, work, s);
      special.apply(noise.logCdfFunction(), s, z, 0, work, 0);
      double bound = noise.logDensity(eps) + weightedSum(weight, work, s) + entropy(sigma);

      double dEps = dLogPdf(eps) + hazardSum;
      double alpha = steps.alpha(steps.next(n));
      double sigmoidGamma = Math.exp(Logistic.logSigmoid(gamma));
      location[n] = mu + alpha * dEps;
      scaleParameter[n] = gamma + alpha * (u * dEps + 1 / sigma) * sigmoidGamma;

      double fresh = location[n] + Logistic.softplus(scaleParameter[n]) * standardDraw(random);
      shiftedMargins(fresh, scores, s, z);
      noise.hazards(special, s, z, work);
      double total = 0;
      for (int j = 0; j < s; j++) {
        double c = weight[j] * work[j];
        coef[j + 1] = (float) -c;
        total += c;
      }
      coef[0] = (float) total;
      return bound;
    };
  }

  /** z_j = ε + ψ_y − ψ_{k_j}. */
  private static void shiftedMargins(double eps, double[] scores, int s, double[] z) {
    double shift = eps + scores[0];
    for (int j = 0; j < s; j++) {
      z[j] = shift - scores[j + 1];
    }
  }

  private static double weightedSum(double[] weight, double[] v, int n) {
    double total = 0;
    for (int j = 0; j < n; j++) {
      total += weight[j] * v[j];
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
