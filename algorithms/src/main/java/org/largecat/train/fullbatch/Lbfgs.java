package org.largecat.train.fullbatch;

import java.util.Objects;
import org.largecat.train.LbfgsSettings;
import org.largecat.train.TrainingDivergedException;

/**
 * Minimises a {@link DifferentiableFunction} by limited-memory BFGS (Nocedal and Wright, Numerical
 * Optimization, 2nd ed., Algorithm 7.5): the direction −H∇f from the two-loop recursion over the
 * last m pairs s = x_{k+1} − x_k, y = ∇f_{k+1} − ∇f_k (their Algorithm 7.4), with H₀ = γI, γ = sᵀy
 * / yᵀy of the newest pair (their Eq. 7.20), and a {@link StrongWolfeLineSearch}, which keeps sᵀy
 * &gt; 0 so that H stays positive definite. It holds x, ∇f, the direction, a trial point, two trial
 * gradients and the 2m history vectors: (2m + 6) n doubles. Its dot products are plain loops in
 * order, not the kernel SPI's, whose vector lane reductions may round otherwise once compiled: the
 * iterates must not depend on when the JIT compiler gets to them.
 */
public final class Lbfgs {
  /** The most evaluations one line search makes (as scipy's L-BFGS-B). */
  private static final int LINE_SEARCH_EVALUATIONS = 20;

  /** Told after each iteration. */
  @FunctionalInterface
  public interface Listener {
    /**
     * @param relativeChange (f_{k−1} − f_k) / max(|f_k|, |f_{k−1}|, 1)
     */
    void iteration(
        int iteration,
        int evaluations,
        double value,
        double gradientNorm,
        double relativeChange,
        double seconds);
  }

  private final DifferentiableFunction function;
  private final LbfgsSettings settings;
  private final int n;
  private final double[] x;
  private final double[] direction;
  private final double[] trialX;
  private final double[][] trialGradients;
  private double[] gradient;
  private final double[][] s;
  private final double[][] y;
  private final double[] rho;
  private final double[] historyAlpha;
  private int stored;
  private int newest = -1;
  private double scale = Double.NaN;
  private int iteration;
  private int evaluations;

  /** Why {@link #lineSearch} found no step, when it did not. */
  private LbfgsResult.Outcome stall;

  private Lbfgs(DifferentiableFunction function, double[] x, LbfgsSettings settings) {
    this.function = function;
    this.settings = settings;
    this.n = x.length;
    this.x = x;
    this.direction = new double[n];
    this.trialX = new double[n];
    this.trialGradients = new double[][] {new double[n], new double[n]};
    this.gradient = new double[n];
    int m = settings.history();
    this.s = new double[m][n];
    this.y = new double[m][n];
    this.rho = new double[m];
    this.historyAlpha = new double[m];
  }

  /**
   * Minimises {@code function} from {@code x}, leaving the best point found in {@code x}.
   *
   * @throws TrainingDivergedException when f or ∇f is NaN or infinite at a point evaluated; the
   *     message names the iteration
   */
  public static LbfgsResult minimise(
      DifferentiableFunction function, double[] x, LbfgsSettings settings, Listener listener) {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(listener, "listener");
    return new Lbfgs(function, x, settings).run(listener);
  }

  private LbfgsResult run(Listener listener) {
    long start = System.nanoTime();
    double value = evaluate(x, gradient);
    double gradientNorm = normInf(gradient);
    requireFinite(value, gradientNorm);
    double relativeChange = Double.NaN;
    if (gradientNorm <= settings.gradientTolerance()) {
      return result(
          start, value, gradientNorm, relativeChange, LbfgsResult.Outcome.GRADIENT_TOLERANCE);
    }
    while (true) {
      StrongWolfeLineSearch.Point step = lineSearch(value);
      if (step == null) {
        return result(start, value, gradientNorm, relativeChange, stall);
      }
      move(step);
      iteration++;
      double before = value;
      value = step.value();
      gradientNorm = normInf(gradient);
      requireFinite(value, gradientNorm);
      relativeChange = (before - value) / Math.max(Math.max(Math.abs(value), Math.abs(before)), 1);
      double seconds = (System.nanoTime() - start) * 1e-9;
      listener.iteration(iteration, evaluations, value, gradientNorm, relativeChange, seconds);
      LbfgsResult.Outcome outcome = stopTest(gradientNorm, relativeChange, seconds);
      if (outcome != null) {
        return result(start, value, gradientNorm, relativeChange, outcome);
      }
    }
  }

  /** Why the run stops after an iteration, or null to go on. */
  private LbfgsResult.Outcome stopTest(double gradientNorm, double relativeChange, double seconds) {
    if (gradientNorm <= settings.gradientTolerance()) {
      return LbfgsResult.Outcome.GRADIENT_TOLERANCE;
    }
    if (relativeChange <= settings.relativeTolerance()) {
      return LbfgsResult.Outcome.RELATIVE_TOLERANCE;
    }
    if (iteration >= settings.maxIterations()) {
      return LbfgsResult.Outcome.MAX_ITERATIONS;
    }
    if (evaluations >= settings.maxEvaluations()) {
      return LbfgsResult.Outcome.MAX_EVALUATIONS;
    }
    return seconds >= settings.maxSeconds() ? LbfgsResult.Outcome.MAX_SECONDS : null;
  }

  /**
   * A step along the quasi-Newton direction; when the search finds no lower f there and f is not at
   * its noise floor, the history is dropped and a scaled −∇f tried. Null when neither gave a step
   * ({@link #stall} says why).
   */
  private StrongWolfeLineSearch.Point lineSearch(double value) {
    boolean quasiNewton = true;
    while (true) {
      double slope = searchDirection();
      if (!(slope < 0)) {
        forget();
        quasiNewton = false;
        slope = searchDirection();
      }
      int budget = Math.min(LINE_SEARCH_EVALUATIONS, settings.maxEvaluations() - evaluations);
      if (budget <= 0) {
        stall = LbfgsResult.Outcome.MAX_EVALUATIONS;
        return null;
      }
      double firstStep =
          Double.isNaN(scale) ? Math.min(1, 1 / Math.sqrt(dot(gradient, gradient))) : 1;
      StrongWolfeLineSearch.Point step =
          StrongWolfeLineSearch.search(this::trial, value, slope, firstStep, budget).step();
      if (step != null) {
        return step;
      }
      if (evaluations >= settings.maxEvaluations()) {
        stall = LbfgsResult.Outcome.MAX_EVALUATIONS;
      } else if (quasiNewton
          && -slope / 2 <= settings.relativeTolerance() * Math.max(Math.abs(value), 1)) {
        stall = LbfgsResult.Outcome.NOISE_FLOOR;
      } else if (stored > 0) {
        forget();
        quasiNewton = false;
        continue;
      } else {
        stall = LbfgsResult.Outcome.NO_PROGRESS;
      }
      return null;
    }
  }

  /** Sets the direction to −H∇f by the two-loop recursion and returns its slope ∇fᵀd. */
  private double searchDirection() {
    int m = settings.history();
    System.arraycopy(gradient, 0, direction, 0, n);
    for (int j = 0, i = newest; j < stored; j++, i = (i + m - 1) % m) {
      historyAlpha[i] = rho[i] * dot(s[i], direction);
      axpy(-historyAlpha[i], y[i], direction);
    }
    double h0 = Double.isNaN(scale) ? 1 : scale;
    for (int i = 0; i < n; i++) {
      direction[i] *= -h0;
    }
    for (int j = 0, i = (newest - stored + 1 + m) % m; j < stored; j++, i = (i + 1) % m) {
      double beta = rho[i] * dot(y[i], direction);
      axpy(-historyAlpha[i] - beta, s[i], direction);
    }
    return dot(gradient, direction);
  }

  private static double dot(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }

  /** y += a x. */
  private static void axpy(double a, double[] x, double[] y) {
    for (int i = 0; i < x.length; i++) {
      y[i] += a * x[i];
    }
  }

  /** Drops the pairs; γ stays, so that the next direction is a scaled −∇f. */
  private void forget() {
    stored = 0;
  }

  /** φ(α) = f(x + α d), into the trial gradient that {@code keep} does not hold. */
  private StrongWolfeLineSearch.Point trial(double alpha, StrongWolfeLineSearch.Point keep) {
    int buffer = keep.buffer() == 0 ? 1 : 0;
    for (int i = 0; i < n; i++) {
      trialX[i] = x[i] + alpha * direction[i];
    }
    double[] g = trialGradients[buffer];
    double value = evaluate(trialX, g);
    double slope = dot(g, direction);
    requireFinite(value, slope);
    return new StrongWolfeLineSearch.Point(alpha, value, slope, buffer);
  }

  /** x ← x + α d and ∇f ← the step's gradient; the pair (s, y) joins the history. */
  private void move(StrongWolfeLineSearch.Point step) {
    int m = settings.history();
    int slot = (newest + 1) % m;
    double[] newGradient = trialGradients[step.buffer()];
    double[] si = s[slot];
    double[] yi = y[slot];
    double alpha = step.alpha();
    for (int i = 0; i < n; i++) {
      double moved = x[i] + alpha * direction[i];
      si[i] = moved - x[i];
      x[i] = moved;
      yi[i] = newGradient[i] - gradient[i];
    }
    trialGradients[step.buffer()] = gradient;
    gradient = newGradient;
    double sy = dot(si, yi);
    double yy = dot(yi, yi);
    // A step that met only sufficient decrease may have sᵀy ≤ 0; such a pair would break H.
    if (sy > Math.ulp(1.0) * yy) {
      newest = slot;
      stored = Math.min(stored + 1, m);
      rho[slot] = 1 / sy;
      scale = sy / yy;
    }
  }

  private double evaluate(double[] point, double[] g) {
    evaluations++;
    return function.valueAndGradient(point, g);
  }

  /** Throws when f or a quantity of ∇f (its norm, a slope) is NaN or infinite. */
  private void requireFinite(double value, double gradientQuantity) {
    if (!Double.isFinite(value) || !Double.isFinite(gradientQuantity)) {
      String where =
          iteration == 0 && evaluations == 1
              ? "the starting point"
              : "iteration " + (iteration + 1) + " (evaluation " + evaluations + ")";
      throw new TrainingDivergedException(
          (Double.isFinite(value)
                  ? "the gradient became non-finite"
                  : "the objective became " + value)
              + " at "
              + where
              + "; the model diverged and must not be used");
    }
  }

  private static double normInf(double[] v) {
    double norm = 0;
    for (double e : v) {
      norm = Math.max(norm, Math.abs(e));
    }
    return norm;
  }

  private LbfgsResult result(
      long start,
      double value,
      double gradientNorm,
      double relativeChange,
      LbfgsResult.Outcome outcome) {
    return new LbfgsResult(
        value,
        gradientNorm,
        iteration,
        evaluations,
        (System.nanoTime() - start) * 1e-9,
        relativeChange,
        outcome);
  }
}
