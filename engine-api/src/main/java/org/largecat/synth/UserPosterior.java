package org.largecat.synth;

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
 * which is (3)-(5) for one user with one ζ_ui per (user, item) set to its closed form
 * ζ_ui = E_q b_ui (the paper shares one ζ_u across a user's items; by Jensen that bound is looser,
 * and at the optimum the ζ terms collapse to the log-sum-exp above), plus the constants that make it
 * a lower bound on log p(x_u). L_u is jointly concave in (λ, v): λ is updated by Newton's method with
 * the exact d x d Hessian (rather than the paper's nonlinear conjugate gradient: d is small, the
 * Hessian costs one syrk over the I K cells, and Newton converges in a few steps however badly Σ⁻¹
 * and the embeddings are scaled), v by Newton in log space (§3) on each coordinate; both with
 * backtracking, so L_u never decreases. Laplace (§5.1): λ = argmax log p(x_u, z) by the same Newton
 * iteration with v = 0, V = (−∇² log p)⁻¹ at λ, a full d x d matrix.
 */
final class UserPosterior {
  private static final int MAX_SWEEPS = 200;
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
  private final double[] scaledRows;
  private final double[] itemMeans;
  private final double[] observed;
  private final double[] gradient;
  private final double[] step;
  private final double[] hessian;
  private final double[] itemShift;
  private final double[] userMean;
  private final double[] userVariance;
  private final double[] saved;
  private final double[] factor;

  /** Workspace for models with these dimensions; {@code tolerance} is the relative change of L_u that ends a fit. */
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
    scaledRows = new double[cells * latent];
    itemMeans = new double[items * latent];
    observed = new double[latent];
    gradient = new double[latent];
    step = new double[latent];
    hessian = new double[latent * latent];
    itemShift = new double[items];
    userMean = new double[latent];
    userVariance = new double[latent];
    saved = new double[latent];
    factor = new double[latent * latent];
  }

  /**
   * Variational E-step for one user, starting from (λ, v) = ({@code lambda[off..]}, the diagonal of
   * {@code covariance[off * d..]}) and overwriting both; returns L_u at the result (never below L_u at the start).
   */
  double fitVariational(ModelParameters p, ChoiceData data, int user, double[] lambda, double[] covariance) {
    int lambdaOff = user * latent;
    int covOff = user * latent * latent;
    double[] v = userVariance;
    double[] lam = userMean;
    for (int s = 0; s < latent; s++) {
      lam[s] = lambda[lambdaOff + s];
      v[s] = covariance[covOff + s * latent + s];
    }
    observedSum(p, data, user);
    double bound = variationalBound(p, lam, v);
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
      double before = bound;
      newtonStepLambda(p, lam, v);
      bound = newtonStepLogVariance(p, lam, v);
      if (bound - before <= tolerance * Math.max(1, Math.abs(bound))) {
        break;
      }
    }
    for (int s = 0; s < latent; s++) {
      lambda[lambdaOff + s] = lam[s];
      for (int t = 0; t < latent; t++) {
        covariance[covOff + s * latent + t] = s == t ? v[s] : 0;
      }
    }
    return bound;
  }

  /**
   * Laplace E-step (§5.1) for one user, starting the Newton iteration at {@code lambda[off..]};
   * overwrites λ with the mode of log p(x_u, z) and V with the inverse negative Hessian there; returns
   * the variational bound L_u at that (λ, V).
   */
  double fitLaplace(ModelParameters p, ChoiceData data, int user, double[] lambda, double[] covariance) {
    int lambdaOff = user * latent;
    double[] lam = userMean;
    System.arraycopy(lambda, lambdaOff, lam, 0, latent);
    observedSum(p, data, user);
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
      if (!newtonStepLambda(p, lam, null)) {
        break;
      }
    }
    System.arraycopy(lam, 0, lambda, lambdaOff, latent);
    softmaxByItem(p, lam, null);
    negativeHessianLambda(p);
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
   * L_u at q(z_u) = N(λ_u, V_u) for any positive definite V_u (full or diagonal), with
   * E_q exp(z'β) = exp(λ'β + ½β'Vβ), ½β'Vβ = ½|C'β|² for V = C C'.
   */
  double bound(ModelParameters p, ChoiceData data, int user, double[] lambda, double[] covariance) {
    int lambdaOff = user * latent;
    int covOff = user * latent * latent;
    observedSum(p, data, user);
    System.arraycopy(covariance, covOff, factor, 0, latent * latent);
    matrixOps.choleskyFactor(latent, factor, 0, latent);
    double logDetCovariance = 0;
    for (int s = 0; s < latent; s++) {
      logDetCovariance += 2 * Math.log(factor[s * latent + s]);
      for (int t = s + 1; t < latent; t++) {
        factor[s * latent + t] = 0;
      }
    }
    int cells = p.cells();
    matrixOps.gemm(false, false, cells, latent, latent, 1, p.embeddings, 0, latent, factor, 0, latent, 0,
        scaledRows, 0, latent);
    matrixOps.gemv(false, cells, latent, 1, p.embeddings, 0, latent, lambda, lambdaOff, 0, logMoment, 0);
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
    return gaussianTerms(p, lambda, lambdaOff, logPartition, traceTerm, logDetCovariance);
  }

  /**
   * Writes z_us = λ_u + C_u ξ_us (V_u = C_u C_u') for s < samples into rows {@code user * samples + s}
   * of {@code points}, from the standard normal draws in the same rows of {@code noise}.
   */
  void drawPoints(int user, double[] lambda, double[] covariance, double[] noise, int samples, double[] points) {
    System.arraycopy(covariance, user * latent * latent, factor, 0, latent * latent);
    matrixOps.choleskyFactor(latent, factor, 0, latent);
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
   * Importance sampling from q(z_u) = N(λ_u, V_u) (the Laplace fit): draws z_us as {@link #drawPoints}
   * does, sets the self-normalised weights w_us ∝ p(x_u, z_us) / q(z_us) in {@code weights} (rows
   * {@code user * samples + s}, exponents shifted by their maximum), overwrites λ_u and V_u with the
   * weighted mean and covariance of the draws, and returns log((1/S) Σ_s p(x_u, z_us) / q(z_us)), an
   * estimate of log p(x_u) whose expectation is a lower bound on it.
   */
  double importanceSample(ModelParameters p, ChoiceData data, int user, double[] lambda, double[] covariance,
      double[] noise, int samples, double[] points, double[] weights) {
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
      System.arraycopy(points, row, saved, 0, latent);
      double noiseNorm = vectorOps.dot(latent, noise, row, noise, row);
      // log p(x_u | z) + log N(z; μ, Σ) − log N(z; λ, V), the (2π)^(d/2) of both densities cancelling.
      double logRatio = lambdaObjective(p, saved, null) + 0.5 * p.logDetPrecision + logDetFactor + 0.5 * noiseNorm;
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
          covariance[covOff + s * latent + t] += weights[first + j] * ds * (points[row + t] - lambda[lambdaOff + t]);
        }
      }
    }
    return largest + Math.log(sum / samples);
  }

  /** o = Σ_i β_{i, x_ui}, the data term's coefficient of λ. */
  private void observedSum(ModelParameters p, ChoiceData data, int user) {
    java.util.Arrays.fill(observed, 0);
    for (int i = 0; i < items; i++) {
      vectorOps.axpy(latent, 1.0, p.embeddings, (i * choiceCount + data.choice(user, i)) * latent, observed, 0);
    }
  }

  private double variationalBound(ModelParameters p, double[] lam, double[] v) {
    double logPartition = softmaxByItem(p, lam, v);
    double traceTerm = 0;
    double logDet = 0;
    for (int s = 0; s < latent; s++) {
      traceTerm += p.precision[s * latent + s] * v[s];
      logDet += Math.log(v[s]);
    }
    return gaussianTerms(p, lam, 0, logPartition, traceTerm, logDet);
  }

  /** o'λ − Σ_i log b_i − ½(λ−μ)'Σ⁻¹(λ−μ) − ½ tr(Σ⁻¹V) + ½ log|V| + ½ log|Σ⁻¹| + d/2 (entropy and prior of (4)-(5)). */
  private double gaussianTerms(ModelParameters p, double[] lam, int lamOff, double logPartition, double traceTerm,
      double logDetCovariance) {
    double quadratic = 0;
    for (int s = 0; s < latent; s++) {
      double ds = lam[lamOff + s] - p.mean[s];
      for (int t = 0; t < latent; t++) {
        quadratic += ds * p.precision[s * latent + t] * (lam[lamOff + t] - p.mean[t]);
      }
    }
    return vectorOps.dot(latent, observed, 0, lam, lamOff) - logPartition
        - 0.5 * (quadratic + traceTerm - logDetCovariance - p.logDetPrecision - latent);
  }

  /**
   * The λ-dependent part of L_u (or of log p(x_u, λ) when v is null): o'λ − Σ_i log b_i − ½(λ−μ)'Σ⁻¹(λ−μ).
   */
  private double lambdaObjective(ModelParameters p, double[] lam, double[] v) {
    double logPartition = softmaxByItem(p, lam, v);
    double quadratic = 0;
    for (int s = 0; s < latent; s++) {
      double ds = lam[s] - p.mean[s];
      for (int t = 0; t < latent; t++) {
        quadratic += ds * p.precision[s * latent + t] * (lam[t] - p.mean[t]);
      }
    }
    return vectorOps.dot(latent, observed, 0, lam, 0) - logPartition - 0.5 * quadratic;
  }

  /**
   * One Newton step in λ with backtracking; returns false when the step changed nothing (converged).
   * Gradient (§3): o − Σ_ik π̃_ik β_ik − Σ⁻¹(λ−μ), π̃_i = softmax_k of the log-moments; negative
   * Hessian Σ_i Cov_{π̃_i}(β_i) + Σ⁻¹.
   */
  private boolean newtonStepLambda(ModelParameters p, double[] lam, double[] v) {
    double current = lambdaObjective(p, lam, v);
    for (int s = 0; s < latent; s++) {
      double g = observed[s];
      for (int t = 0; t < latent; t++) {
        g -= p.precision[s * latent + t] * (lam[t] - p.mean[t]);
      }
      gradient[s] = g;
    }
    int cells = p.cells();
    matrixOps.gemv(true, cells, latent, -1, p.embeddings, 0, latent, weight, 0, 1, gradient, 0);
    negativeHessianLambda(p);
    matrixOps.choleskyFactor(latent, hessian, 0, latent);
    System.arraycopy(gradient, 0, step, 0, latent);
    matrixOps.choleskySolve(latent, 1, hessian, 0, latent, step, 0, 1);
    double decrement = vectorOps.dot(latent, gradient, 0, step, 0);
    if (!(decrement > 2 * tolerance * Math.max(1, Math.abs(current)))) {
      return false;
    }
    System.arraycopy(lam, 0, saved, 0, latent);
    double scale = 1;
    for (int halving = 0; halving < MAX_HALVINGS; halving++, scale *= 0.5) {
      for (int s = 0; s < latent; s++) {
        lam[s] = saved[s] + scale * step[s];
      }
      if (lambdaObjective(p, lam, v) >= current) {
        return true;
      }
    }
    System.arraycopy(saved, 0, lam, 0, latent);
    return false;
  }

  /** Lower triangle of Σ_i Cov_{π̃_i}(β_i) + Σ⁻¹ into {@code hessian}, from the weights π̃ in {@code weight}. */
  private void negativeHessianLambda(ModelParameters p) {
    int cells = p.cells();
    java.util.Arrays.fill(itemMeans, 0);
    for (int c = 0; c < cells; c++) {
      double root = Math.sqrt(weight[c]);
      int row = c * latent;
      int meanRow = (c / choiceCount) * latent;
      for (int s = 0; s < latent; s++) {
        scaledRows[row + s] = root * p.embeddings[row + s];
        itemMeans[meanRow + s] += weight[c] * p.embeddings[row + s];
      }
    }
    System.arraycopy(p.precision, 0, hessian, 0, latent * latent);
    matrixOps.syrk(true, latent, cells, 1, scaledRows, 0, latent, 1, hessian, 0, latent);
    matrixOps.syrk(true, latent, items, -1, itemMeans, 0, latent, 1, hessian, 0, latent);
  }

  /**
   * One Newton step on every log v_s at once (§3, "Newton's method in the log space"), with
   * backtracking on L_u; returns L_u after it. With ζ at its closed form the derivatives are
   * ∂L/∂v_s = −Σ_i E_{π̃_i}[½β_is²] − ½Σ⁻¹_ss + 1/(2v_s) and ∂²L/∂v_s² = −Σ_i Var_{π̃_i}[½β_is²] − 1/(2v_s²)
   * (the paper's ζ⁻¹ exp(...) sums become softmax weights); in t = log v the step is
   * −v f'/(v² f'' + v f'), taken only where that denominator is negative (else a unit step uphill).
   */
  private double newtonStepLogVariance(ModelParameters p, double[] lam, double[] v) {
    double current = variationalBound(p, lam, v);
    int cells = p.cells();
    matrixOps.gemv(true, cells, latent, 1, p.halfSquaredEmbeddings, 0, latent, weight, 0, 0, gradient, 0);
    java.util.Arrays.fill(hessian, 0, latent, 0);
    java.util.Arrays.fill(itemMeans, 0);
    for (int c = 0; c < cells; c++) {
      int row = c * latent;
      int meanRow = (c / choiceCount) * latent;
      for (int s = 0; s < latent; s++) {
        double h = p.halfSquaredEmbeddings[row + s];
        hessian[s] += weight[c] * h * h;
        itemMeans[meanRow + s] += weight[c] * h;
      }
    }
    for (int i = 0; i < items; i++) {
      for (int s = 0; s < latent; s++) {
        hessian[s] -= itemMeans[i * latent + s] * itemMeans[i * latent + s];
      }
    }
    for (int s = 0; s < latent; s++) {
      double first = -gradient[s] - 0.5 * p.precision[s * latent + s] + 0.5 / v[s];
      double second = -hessian[s] - 0.5 / (v[s] * v[s]);
      double logFirst = v[s] * first;
      double logSecond = v[s] * v[s] * second + v[s] * first;
      double move = logSecond < 0 ? -logFirst / logSecond : Math.signum(logFirst);
      step[s] = Math.max(-MAX_LOG_STEP, Math.min(MAX_LOG_STEP, move));
      saved[s] = v[s];
    }
    double scale = 1;
    for (int halving = 0; halving < MAX_HALVINGS; halving++, scale *= 0.5) {
      for (int s = 0; s < latent; s++) {
        v[s] = saved[s] * Math.exp(scale * step[s]);
      }
      double next = variationalBound(p, lam, v);
      if (next >= current) {
        return next;
      }
    }
    System.arraycopy(saved, 0, v, 0, latent);
    return variationalBound(p, lam, v);
  }

  /**
   * Sets the log-moments a_ik = λ'β_ik (+ ½ Σ_s v_s β_iks² when v is not null) with one gemv over
   * the I K cells, then π̃ (in {@code weight}) per item; returns Σ_i log Σ_k exp(a_ik).
   */
  private double softmaxByItem(ModelParameters p, double[] lam, double[] v) {
    int cells = p.cells();
    matrixOps.gemv(false, cells, latent, 1, p.embeddings, 0, latent, lam, 0, 0, logMoment, 0);
    if (v != null) {
      matrixOps.gemv(false, cells, latent, 1, p.halfSquaredEmbeddings, 0, latent, v, 0, 1, logMoment, 0);
    }
    return softmaxOfLogMoments();
  }

  /** π̃ from {@code logMoment}, each item's exponents shifted by their maximum; returns Σ_i log-sum-exp. */
  private double softmaxOfLogMoments() {
    int cells = items * choiceCount;
    double total = 0;
    for (int i = 0; i < items; i++) {
      int off = i * choiceCount;
      double largest = vectorOps.max(choiceCount, logMoment, off);
      itemShift[i] = largest;
      for (int k = 0; k < choiceCount; k++) {
        shifted[off + k] = logMoment[off + k] - largest;
      }
    }
    specialFunctions.apply(ElementwiseFunction.EXP, cells, shifted, 0, weight, 0);
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
