package org.largecat.synth;

import org.largecat.MemoryBudget;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.MatrixOps;
import org.largecat.kernel.SpecialFunctions;
import org.largecat.kernel.VectorOps;

/**
 * One thread's E-step: fits q(z_u) = N(λ_u, V_u) for one user at a time, reusing its workspace (no
 * allocation per user). Variational (§3): maximises the per-user bound
 *
 * <pre>
 *   L_u(λ, v) = Σ_i λ'β_{i,x_ui} − Σ_i log Σ_k exp(λ'β_ik + ½ Σ_s v_s β_iks²)
 *               − ½ (λ−μ)'Σ⁻¹(λ−μ) − ½ tr(Σ⁻¹V) + ½ log|V| + ½ log|Σ⁻¹| + d/2,      V = diag(v)
 * </pre>
 *
 * which is (3)-(5) for one user with one ζ_ui per (user, item) set to its closed form ζ_ui = E_q
 * b_ui (the paper shares one ζ_u across a user's items; by Jensen that bound is looser, and at the
 * optimum the ζ terms collapse to the log-sum-exp above), plus the constants that make it a lower
 * bound on log p(x_u). L_u is jointly concave in (λ, v) (minus a log-sum-exp of functions linear in
 * them, plus concave terms). Optimiser: one Newton iteration on (λ, log v) jointly, with the exact
 * 2d x 2d Hessian, instead of the paper's conjugate gradient for λ alternating with Newton for log
 * v: d is small, the Hessian is one syrk over the I K cells' feature rows [β, ½β²], and a joint
 * step converges quadratically where coordinate ascent crawls along the strong λ-v coupling. v
 * stays in log space as §3 asks; where ∂²L/∂(log v)² is not negative its v·∂L/∂v term is dropped
 * from the Hessian, so the step is always uphill, and backtracking makes L_u never decrease.
 * Laplace (§5.1): λ = argmax log p(x_u, z) by the same iteration on λ alone (v = 0), V = (−∇² log
 * p)⁻¹ at λ, a full d x d matrix.
 */
final class UserPosterior {
  private static final int MAX_NEWTON_STEPS = 100;
  private static final int MAX_HALVINGS = 40;
  private static final double MAX_LOG_STEP = 3;

  private final VectorOps vectorOps;
  private final MatrixOps matrixOps;
  private final SpecialFunctions specialFunctions;
  private final int items;
  private final int choiceCount;
  private final int latent;
  private final double tolerance;
  private final double[] logMoment;
  private final double[] shifted;
  private final double[] weight;
  private final double[] itemShift;
  private final double[] scaledRows;
  private final double[] itemMeans;
  private final double[] observed;
  private final double[] state;
  private final double[] saved;
  private final double[] gradient;
  private final double[] step;
  private final double[] hessian;
  private final double[] factor;

  /**
   * The bytes of one workspace for these dimensions, refusing one whose largest array, items × K ×
   * 2d, could not be allocated.
   */
  static long workspaceBytes(int items, int choiceCount, int latent) {
    long cells = MemoryBudget.arrayLength("the E-step's cells, items × K", 8, items, choiceCount);
    MemoryBudget.arrayLength(
        "the E-step's rows, items × K × 2d", Double.BYTES, items, choiceCount, 2L * latent);
    return Double.BYTES * cells * (3 + 2L * latent);
  }

  /**
   * Workspace for models with these dimensions; {@code tolerance} is the relative Newton decrement
   * that ends a fit.
   */
  UserPosterior(int items, int choiceCount, int latent, double tolerance, Kernels kernels) {
    this.vectorOps = kernels.vectorOps();
    this.matrixOps = kernels.matrixOps();
    this.specialFunctions = kernels.specialFunctions();
    this.items = items;
    this.choiceCount = choiceCount;
    this.latent = latent;
    this.tolerance = tolerance;
    int cells = items * choiceCount;
    logMoment = new double[cells];
    shifted = new double[cells];
    weight = new double[cells];
    itemShift = new double[items];
    scaledRows = new double[cells * 2 * latent];
    itemMeans = new double[items * 2 * latent];
    observed = new double[latent];
    state = new double[2 * latent];
    saved = new double[2 * latent];
    gradient = new double[2 * latent];
    step = new double[2 * latent];
    hessian = new double[4 * latent * latent];
    factor = new double[latent * latent];
  }

  /**
   * Variational E-step for one user, starting from (λ, v) = ({@code lambda[u d..]}, the diagonal of
   * {@code covariance[u d²..]}) and overwriting both; returns L_u at the result (never below L_u at
   * the start).
   */
  double fitVariational(
      ModelParameters p, ChoiceData data, int user, double[] lambda, double[] covariance) {
    int lambdaOff = user * latent;
    int covOff = user * latent * latent;
    for (int s = 0; s < latent; s++) {
      state[s] = lambda[lambdaOff + s];
      state[latent + s] = covariance[covOff + s * latent + s];
    }
    observedSum(p, data, user);
    double value = maximise(p, true);
    for (int s = 0; s < latent; s++) {
      lambda[lambdaOff + s] = state[s];
      for (int t = 0; t < latent; t++) {
        covariance[covOff + s * latent + t] = s == t ? state[latent + s] : 0;
      }
    }
    return value + 0.5 * (p.logDetPrecision + latent);
  }

  /**
   * Laplace E-step (§5.1) for one user, starting the Newton iteration at {@code lambda[u d..]};
   * overwrites λ with the mode of log p(x_u, z) and V with the inverse negative Hessian there;
   * returns the variational bound L_u at that (λ, V).
   */
  double fitLaplace(
      ModelParameters p, ChoiceData data, int user, double[] lambda, double[] covariance) {
    int lambdaOff = user * latent;
    System.arraycopy(lambda, lambdaOff, state, 0, latent);
    observedSum(p, data, user);
    maximise(p, false);
    System.arraycopy(state, 0, lambda, lambdaOff, latent);
    negativeHessian(p, state, latent);
    matrixOps.choleskyFactor(latent, hessian, 0, latent);
    int covOff = user * latent * latent;
    java.util.Arrays.fill(covariance, covOff, covOff + latent * latent, 0);
    for (int s = 0; s < latent; s++) {
      covariance[covOff + s * latent + s] = 1;
    }
    matrixOps.choleskySolve(latent, latent, hessian, 0, latent, covariance, covOff, latent);
    return bound(p, data, user, lambda, covariance);
  }

  /**
   * L_u at q(z_u) = N(λ_u, V_u) for any positive definite V_u (full or diagonal), with E_q exp(z'β)
   * = exp(λ'β + ½β'Vβ), ½β'Vβ = ½|C'β|² for V = C C'.
   */
  double bound(ModelParameters p, ChoiceData data, int user, double[] lambda, double[] covariance) {
    int lambdaOff = user * latent;
    int covOff = user * latent * latent;
    observedSum(p, data, user);
    double logDetFactor = choleskyOfCovariance(covariance, user);
    for (int s = 0; s < latent; s++) {
      for (int t = s + 1; t < latent; t++) {
        factor[s * latent + t] = 0;
      }
    }
    int cells = p.cells();
    matrixOps.gemm(
        false,
        false,
        cells,
        latent,
        latent,
        1,
        p.features,
        0,
        2 * latent,
        factor,
        0,
        latent,
        0,
        scaledRows,
        0,
        latent);
    matrixOps.gemv(
        false, cells, latent, 1, p.features, 0, 2 * latent, lambda, lambdaOff, 0, logMoment, 0);
    for (int c = 0; c < cells; c++) {
      logMoment[c] += 0.5 * vectorOps.dot(latent, scaledRows, c * latent, scaledRows, c * latent);
    }
    double logPartition = softmaxOfLogMoments();
    double traceTerm = 0;
    for (int s = 0; s < latent; s++) {
      for (int t = 0; t < latent; t++) {
        traceTerm += p.precision[s * latent + t] * covariance[covOff + t * latent + s];
      }
    }
    return vectorOps.dot(latent, observed, 0, lambda, lambdaOff)
        - logPartition
        - 0.5
            * (priorQuadratic(p, lambda, lambdaOff)
                + traceTerm
                - 2 * logDetFactor
                - p.logDetPrecision
                - latent);
  }

  /**
   * Writes z_us = λ_u + C_u ξ_us (V_u = C_u C_u') for s < samples into rows {@code user * samples +
   * s} of {@code points}, from the standard normal draws in the same rows of {@code noise}.
   */
  void drawPoints(
      int user,
      double[] lambda,
      double[] covariance,
      double[] noise,
      int samples,
      double[] points) {
    choleskyOfCovariance(covariance, user);
    for (int j = 0; j < samples; j++) {
      int row = (user * samples + j) * latent;
      for (int s = 0; s < latent; s++) {
        double value = lambda[user * latent + s];
        for (int t = 0; t <= s; t++) {
          value += factor[s * latent + t] * noise[row + t];
        }
        points[row + s] = value;
      }
    }
  }

  /**
   * Importance sampling from q(z_u) = N(λ_u, V_u) (the Laplace fit): draws z_us as {@link
   * #drawPoints} does, sets the self-normalised weights w_us ∝ p(x_u, z_us) / q(z_us) in {@code
   * weights} (rows {@code user * samples + s}, exponents shifted by their maximum), overwrites λ_u
   * and V_u with the weighted mean and covariance of the draws, and returns log((1/S) Σ_s p(x_u,
   * z_us) / q(z_us)), an estimate of log p(x_u) whose expectation is a lower bound on it.
   */
  double importanceSample(
      ModelParameters p,
      ChoiceData data,
      int user,
      double[] lambda,
      double[] covariance,
      double[] noise,
      int samples,
      double[] points,
      double[] weights) {
    drawPoints(user, lambda, covariance, noise, samples, points);
    double logDetFactor = 0;
    for (int s = 0; s < latent; s++) {
      logDetFactor += Math.log(factor[s * latent + s]);
    }
    observedSum(p, data, user);
    int first = user * samples;
    double largest = Double.NEGATIVE_INFINITY;
    for (int j = 0; j < samples; j++) {
      int row = (first + j) * latent;
      System.arraycopy(points, row, state, 0, latent);
      double noiseNorm = vectorOps.dot(latent, noise, row, noise, row);
      // log p(x_u | z) + log N(z; μ, Σ) − log N(z; λ, V), the (2π)^(d/2) of both densities
      // cancelling.
      double logRatio =
          objective(p, state, false) + 0.5 * p.logDetPrecision + logDetFactor + 0.5 * noiseNorm;
      weights[first + j] = logRatio;
      largest = Math.max(largest, logRatio);
    }
    double sum = 0;
    for (int j = 0; j < samples; j++) {
      weights[first + j] = Math.exp(weights[first + j] - largest);
      sum += weights[first + j];
    }
    int lambdaOff = user * latent;
    int covOff = user * latent * latent;
    java.util.Arrays.fill(lambda, lambdaOff, lambdaOff + latent, 0);
    java.util.Arrays.fill(covariance, covOff, covOff + latent * latent, 0);
    for (int j = 0; j < samples; j++) {
      weights[first + j] /= sum;
      vectorOps.axpy(latent, weights[first + j], points, (first + j) * latent, lambda, lambdaOff);
    }
    for (int j = 0; j < samples; j++) {
      int row = (first + j) * latent;
      for (int s = 0; s < latent; s++) {
        double ds = points[row + s] - lambda[lambdaOff + s];
        for (int t = 0; t < latent; t++) {
          covariance[covOff + s * latent + t] +=
              weights[first + j] * ds * (points[row + t] - lambda[lambdaOff + t]);
        }
      }
    }
    return largest + Math.log(sum / samples);
  }

  /** Cholesky factor of V_u into {@code factor} (lower triangle); returns log|C| = ½ log|V_u|. */
  private double choleskyOfCovariance(double[] covariance, int user) {
    System.arraycopy(covariance, user * latent * latent, factor, 0, latent * latent);
    matrixOps.choleskyFactor(latent, factor, 0, latent);
    double logDet = 0;
    for (int s = 0; s < latent; s++) {
      logDet += Math.log(factor[s * latent + s]);
    }
    return logDet;
  }

  /** o = Σ_i β_{i, x_ui}, the data term's coefficient of λ. */
  private void observedSum(ModelParameters p, ChoiceData data, int user) {
    java.util.Arrays.fill(observed, 0);
    for (int i = 0; i < items; i++) {
      vectorOps.axpy(
          latent,
          1.0,
          p.features,
          (i * choiceCount + data.choice(user, i)) * 2 * latent,
          observed,
          0);
    }
  }

  private double priorQuadratic(ModelParameters p, double[] lam, int lamOff) {
    double quadratic = 0;
    for (int s = 0; s < latent; s++) {
      double ds = lam[lamOff + s] - p.mean[s];
      for (int t = 0; t < latent; t++) {
        quadratic += ds * p.precision[s * latent + t] * (lam[lamOff + t] - p.mean[t]);
      }
    }
    return quadratic;
  }

  /**
   * With {@code withVariance}: L_u − ½(log|Σ⁻¹| + d) at x = [λ; v]; without: log p(x_u, λ) up to a
   * constant, o'λ − Σ_i log Σ_k exp(λ'β_ik) − ½(λ−μ)'Σ⁻¹(λ−μ). Leaves π̃ (the per-item softmax of
   * the log-moments) in {@code weight}.
   */
  private double objective(ModelParameters p, double[] x, boolean withVariance) {
    int cells = p.cells();
    matrixOps.gemv(
        false,
        cells,
        withVariance ? 2 * latent : latent,
        1,
        p.features,
        0,
        2 * latent,
        x,
        0,
        0,
        logMoment,
        0);
    double value =
        vectorOps.dot(latent, observed, 0, x, 0)
            - softmaxOfLogMoments()
            - 0.5 * priorQuadratic(p, x, 0);
    if (withVariance) {
      for (int s = 0; s < latent; s++) {
        value += 0.5 * (Math.log(x[latent + s]) - p.precision[s * latent + s] * x[latent + s]);
      }
    }
    return value;
  }

  /** Newton steps on {@code state} until {@link #newtonStep} stops; returns the objective there. */
  private double maximise(ModelParameters p, boolean withVariance) {
    double value = objective(p, state, withVariance);
    for (int iteration = 0; iteration < MAX_NEWTON_STEPS; iteration++) {
      double next = newtonStep(p, withVariance, value);
      if (Double.isNaN(next)) {
        break;
      }
      value = next;
    }
    return value;
  }

  /**
   * One Newton step on {@code state} with backtracking, given the objective {@code current} there
   * with π̃ at {@code state} in {@code weight}; returns the objective after the step (π̃ then at
   * the new state), or NaN when converged (Newton decrement below the tolerance) or when no step
   * length improves. Gradient (§3, with ζ at its closed form the paper's ζ⁻¹ exp(...) sums become
   * softmax weights π̃): ∂/∂λ = o − Σ_ik π̃_ik β_ik − Σ⁻¹(λ−μ), ∂/∂v_s = −Σ_ik π̃_ik ½β_iks² −
   * ½Σ⁻¹_ss + 1/(2v_s); in t = log v the gradient is v ∂/∂v and the Hessian v_s v_t ∂²/∂v_s∂v_t +
   * δ_st v_s ∂/∂v_s (the paper's x f'' + f' rule).
   */
  private double newtonStep(ModelParameters p, boolean withVariance, double current) {
    int n = withVariance ? 2 * latent : latent;
    for (int s = 0; s < latent; s++) {
      double g = observed[s];
      for (int t = 0; t < latent; t++) {
        g -= p.precision[s * latent + t] * (state[t] - p.mean[t]);
      }
      gradient[s] = g;
      if (withVariance) {
        gradient[latent + s] = -0.5 * p.precision[s * latent + s] + 0.5 / state[latent + s];
      }
    }
    matrixOps.gemv(true, p.cells(), n, -1, p.features, 0, 2 * latent, weight, 0, 1, gradient, 0);
    negativeHessian(p, state, n);
    if (withVariance) {
      for (int a = latent; a < n; a++) {
        double va = state[a];
        for (int b = 0; b <= a; b++) {
          hessian[a * n + b] *= b >= latent ? va * state[b] : va;
        }
        gradient[a] *= va;
        hessian[a * n + a] += Math.max(0, -gradient[a]);
      }
    }
    matrixOps.choleskyFactor(n, hessian, 0, n);
    System.arraycopy(gradient, 0, step, 0, n);
    matrixOps.choleskySolve(n, 1, hessian, 0, n, step, 0, 1);
    double decrement = vectorOps.dot(n, gradient, 0, step, 0);
    if (!(decrement > 2 * tolerance * Math.max(1, Math.abs(current)))) {
      return Double.NaN;
    }
    double largestLogStep = 0;
    for (int a = latent; a < n; a++) {
      largestLogStep = Math.max(largestLogStep, Math.abs(step[a]));
    }
    double scale = largestLogStep > MAX_LOG_STEP ? MAX_LOG_STEP / largestLogStep : 1;
    System.arraycopy(state, 0, saved, 0, n);
    for (int halving = 0; halving < MAX_HALVINGS; halving++, scale *= 0.5) {
      for (int a = 0; a < n; a++) {
        state[a] = a < latent ? saved[a] + scale * step[a] : saved[a] * Math.exp(scale * step[a]);
      }
      double next = objective(p, state, withVariance);
      if (next >= current) {
        return next;
      }
    }
    System.arraycopy(saved, 0, state, 0, n);
    objective(p, state, withVariance);
    return Double.NaN;
  }

  /**
   * Lower triangle of the n x n negative Hessian of the objective in (λ, v) (n = 2d) or λ (n = d),
   * from π̃ in {@code weight}: Σ_i Cov_{π̃_i}(f_i) over the feature rows f = [β, ½β²] (one syrk
   * over the cells minus one over the item means), plus Σ⁻¹ on the λ block and 1/(2v_s²) on the v
   * diagonal.
   */
  private void negativeHessian(ModelParameters p, double[] x, int n) {
    int cells = p.cells();
    int width = 2 * latent;
    java.util.Arrays.fill(itemMeans, 0, items * n, 0);
    for (int c = 0; c < cells; c++) {
      double root = Math.sqrt(weight[c]);
      int meanRow = (c / choiceCount) * n;
      for (int j = 0; j < n; j++) {
        double f = p.features[c * width + j];
        scaledRows[c * n + j] = root * f;
        itemMeans[meanRow + j] += weight[c] * f;
      }
    }
    java.util.Arrays.fill(hessian, 0, n * n, 0);
    for (int s = 0; s < latent; s++) {
      System.arraycopy(p.precision, s * latent, hessian, s * n, latent);
    }
    for (int s = latent; s < n; s++) {
      hessian[s * n + s] = 0.5 / (x[s] * x[s]);
    }
    matrixOps.syrk(true, n, cells, 1, scaledRows, 0, n, 1, hessian, 0, n);
    matrixOps.syrk(true, n, items, -1, itemMeans, 0, n, 1, hessian, 0, n);
  }

  /**
   * π̃ from {@code logMoment} into {@code weight}, each item's exponents shifted by their maximum
   * (one batched exp over all cells); returns Σ_i log Σ_k exp(logMoment_ik).
   */
  private double softmaxOfLogMoments() {
    int cells = items * choiceCount;
    for (int i = 0; i < items; i++) {
      int off = i * choiceCount;
      double largest = vectorOps.max(choiceCount, logMoment, off);
      itemShift[i] = largest;
      for (int k = 0; k < choiceCount; k++) {
        shifted[off + k] = logMoment[off + k] - largest;
      }
    }
    specialFunctions.apply(ElementwiseFunction.EXP, cells, shifted, 0, weight, 0);
    double total = 0;
    for (int i = 0; i < items; i++) {
      int off = i * choiceCount;
      double sum = 0;
      for (int k = 0; k < choiceCount; k++) {
        sum += weight[off + k];
      }
      double inverse = 1 / sum;
      for (int k = 0; k < choiceCount; k++) {
        weight[off + k] *= inverse;
      }
      total += itemShift[i] + Math.log(sum);
    }
    return total;
  }
}
