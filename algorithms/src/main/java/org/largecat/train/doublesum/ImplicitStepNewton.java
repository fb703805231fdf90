package org.largecat.train.doublesum;

import java.util.Arrays;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.SpecialFunctions;

/**
 * The Newton solve of Φ, the problem of one mini-batch Implicit SGD step (unbiased-scalable-softmax
 * App. F.3; {@link MiniBatchImplicitTrainer} derives Φ and says why the solve is done this way):
 * one thread's workspace. Every quantity of the solve lives in the scores S = (b_i · a_t) (|S_j| ×
 * q), formed once per Newton direction: a trial point of the line search is S + ℓ·S_d, and the
 * Hessian is never formed, its products (one projection onto the b_i and one back) feed conjugate
 * gradients. Unknowns are stored by basis coordinate, a_t's l-th at [l·q + t], as scores are by
 * point, [i·q + t], so every inner loop of a product runs over the q row slots with independent
 * sums instead of a chain of r. The products stay hand-written loops rather than {@code MatrixOps}
 * calls: a backend's gemm sums in its own order, and the trained models would change in their last
 * bits.
 */
final class ImplicitStepNewton {
  private static final int MAX_NEWTON_ITERATIONS = 100;

  /** The largest score move of the last Newton step after which ω_i is updated by Taylor. */
  private static final double TAYLOR_STEP = 0x1p-16;

  private final SpecialFunctions functions;
  private final double tolerance;

  private final double[] scores;
  private final double[] trialScores;
  private final double[] directionScores;
  private final double[] weights;
  private final double[] zeta;
  private final double[] omega;
  private final double[] a;
  private final double[] gradient;
  private final double[] direction;
  private final double[] residual;
  private final double[] preconditioned;
  private final double[] conjugate;
  private final double[] product;
  private final double[] pointTerms;
  private final double[] diagonalCurvature;
  private final double[] projected;
  private final double[] diagonal;

  /**
   * The problem being solved: the basis B (r × |S_j|, b_i its columns), each point's label slot,
   * the shrunk offsets of z_ik at A = 0 (|S_j| × q), 2(1 + λ_t) per row slot (the ridge part of
   * ∇²Φ), log c + c − ũ_i per point, and the sizes.
   */
  private double[] basis;

  private int[] slot;
  private double[] base;
  private double[] ridge;
  private double[] zetaOffset;
  private int size;
  private int q;
  private int r;

  /**
   * A workspace for batches of at most {@code maxPoints} points and {@code maxRows} rows, stopping
   * when half the squared Newton decrement is below {@code tolerance}·max(1, Φ).
   */
  ImplicitStepNewton(int maxPoints, int maxRows, double tolerance, SpecialFunctions functions) {
    this.functions = functions;
    this.tolerance = tolerance;
    int unknowns = maxRows * maxPoints;
    scores = new double[maxPoints * maxRows];
    trialScores = new double[maxPoints * maxRows];
    directionScores = new double[maxPoints * maxRows];
    weights = new double[maxPoints * maxRows];
    zeta = new double[maxPoints];
    omega = new double[maxPoints];
    a = new double[unknowns];
    gradient = new double[unknowns];
    direction = new double[unknowns];
    residual = new double[unknowns];
    preconditioned = new double[unknowns];
    conjugate = new double[unknowns];
    product = new double[unknowns];
    pointTerms = new double[maxPoints * maxRows];
    diagonalCurvature = new double[maxPoints * maxRows];
    projected = new double[maxPoints * maxRows];
    diagonal = new double[unknowns];
  }

  /** The last solution A, a_t's l-th coordinate at [l·q + t]. */
  double[] solution() {
    return a;
  }

  /** ω_i at the last solution, per point. */
  double[] omega() {
    return omega;
  }

  /**
   * Newton's method with an Armijo line search on Φ from A = 0; leaves A in {@link #solution} and
   * ω_i in {@link #omega}, and returns the Newton iterations it took.
   */
  int solve(
      double[] basis,
      int[] labelSlot,
      double[] base,
      double[] ridge,
      double[] zetaOffset,
      int size,
      int q,
      int r) {
    this.basis = basis;
    this.slot = labelSlot;
    this.base = base;
    this.ridge = ridge;
    this.zetaOffset = zetaOffset;
    this.size = size;
    this.q = q;
    this.r = r;
    int unknowns = q * r;
    Arrays.fill(a, 0, unknowns, 0);
    double[] now = scores;
    double[] trial = trialScores;
    Arrays.fill(now, 0, size * q, 0);
    double normA = 0;
    double phi = objective(now, normA, true);
    int iterations = 0;
    boolean omegaKnown = false;
    while (iterations < MAX_NEWTON_ITERATIONS) {
      iterations++;
      double bound = gradientAndDiagonal();
      // gᵀ(∇²Φ)⁻¹g ≤ bound, as ∇²Φ ⪰ 2 diag(1 + λ) ⊗ I: once bound/2 is within
      // tolerance·scale (scale = max(1, Φ)) this is the last step, and a direction with relative
      // residual ρ leaves a gap of about ρ²·bound/2, so ρ = tolerance·√(2·scale/bound)
      // (√tolerance when the gap is at the tolerance, more the further below it is) leaves at
      // most tolerance²·scale; before that, a residual of min(1/2, √(bound/2·scale)) keeps
      // Newton superlinear (inexact Newton, Nocedal & Wright Thm. 7.2) for fewer Hessian
      // products.
      double scale = Math.max(1, phi);
      boolean last = bound / 2 <= tolerance * scale;
      double forcing =
          Math.min(
              0.5,
              last ? tolerance * Math.sqrt(2 * scale / bound) : Math.sqrt(bound / (2 * scale)));
      double slope = newtonDirection(forcing);
      if (last) {
        // Within tolerance in Φ; the full step left (quadratically convergent here) squares the
        // error in A.
        for (int p = 0; p < unknowns; p++) {
          a[p] += direction[p];
        }
        for (int p = 0; p < size * q; p++) {
          now[p] += directionScores[p];
        }
        omegaKnown = stepOmega();
        break;
      }
      double cross = 0;
      double normD = 0;
      for (int l = 0; l < r; l++) {
        int at = l * q;
        for (int t = 0; t < q; t++) {
          cross += ridge[t] * a[at + t] * direction[at + t];
          normD += ridge[t] * direction[at + t] * direction[at + t];
        }
      }
      cross /= 2;
      normD /= 2;
      double length = 1;
      double next = Double.NaN;
      double trialNorm = normA;
      for (int halving = 0; halving < 60; halving++) {
        for (int p = 0; p < size * q; p++) {
          trial[p] = now[p] + length * directionScores[p];
        }
        trialNorm = normA + length * (2 * cross + length * normD);
        next = objective(trial, trialNorm, true);
        if (next <= phi + 0.25 * length * slope) {
          break;
        }
        length /= 2;
      }
      if (!(next < phi)) {
        break; // rounding: no decrease left to find
      }
      for (int p = 0; p < unknowns; p++) {
        a[p] += length * direction[p];
      }
      double[] swap = now;
      now = trial;
      trial = swap;
      normA = trialNorm;
      phi = next;
    }
    if (!omegaKnown) {
      objective(now, 0, false); // ω_i at the solution
    }
    return iterations;
  }

  /**
   * Φ at the point whose scores are s and whose Σ_k (1 + λ_k)‖a_k‖² is norm; leaves ζ_i, ω_i and,
   * if {@code withWeights} (the gradient and Hessian use them, ω_i alone does not), per point and
   * row slot, e_i: the softmax weights π_ik of the terms of d_i at t ≠ y_i and −Σ_k π_ik at y_i.
   */
  private double objective(double[] s, double norm, boolean withWeights) {
    for (int point = 0; point < size; point++) {
      int ty = slot[point];
      int row = point * q;
      double sy = s[row + ty];
      // log d_i and the weights from one exp per term (d_i's constant term 1 is e^0).
      double max = 0;
      for (int t = 0; t < q; t++) {
        if (t != ty) {
          weights[row + t] = base[row + t] + s[row + t] - sy;
          max = Math.max(max, weights[row + t]);
        }
      }
      double sum = Math.exp(-max);
      for (int t = 0; t < q; t++) {
        if (t != ty) {
          weights[row + t] = Math.exp(weights[row + t] - max);
          sum += weights[row + t];
        }
      }
      if (withWeights) {
        double inverse = 1 / sum;
        double total = 0;
        for (int t = 0; t < q; t++) {
          if (t != ty) {
            weights[row + t] *= inverse;
            total += weights[row + t];
          }
        }
        weights[row + ty] = -total;
      }
      zeta[point] = zetaOffset[point] + max + Math.log(sum);
    }
    functions.apply(ElementwiseFunction.WRIGHT_OMEGA, size, zeta, 0, omega, 0);
    double phi = norm;
    for (int point = 0; point < size; point++) {
      phi += (1 + omega[point]) * (1 + omega[point]);
    }
    return phi;
  }

  /**
   * ω_i after the last Newton step, whose scores are in directionScores, from the weights and ω_i
   * before it by Taylor expansions to second order: ζ_i moves by δ_i = e_i·Δ_i + (Σ_t π_it Δ_it² −
   * (e_i·Δ_i)²)/2 with Δ_it = ds_it − ds_iy_i, and ω by (ω/(1 + ω)) δ + (ω/(1 + ω)³) δ²/2 (∂ω/∂ζ =
   * ω/(1 + ω)). Both remainders are cubic in max |Δ_it|, below 1e-14 of ω when it is at most
   * {@value #TAYLOR_STEP}, far below the Wright omega kernel's own 1e-13; returns false and leaves
   * ω as it was when a step is larger.
   */
  private boolean stepOmega() {
    for (int point = 0; point < size; point++) {
      int row = point * q;
      double sy = directionScores[row + slot[point]];
      for (int t = 0; t < q; t++) {
        if (!(Math.abs(directionScores[row + t] - sy) <= TAYLOR_STEP)) {
          return false;
        }
      }
    }
    for (int point = 0; point < size; point++) {
      int row = point * q;
      int ty = slot[point];
      double sy = directionScores[row + ty];
      double first = 0;
      double second = 0;
      for (int t = 0; t < q; t++) {
        if (t != ty) {
          double move = directionScores[row + t] - sy;
          first += weights[row + t] * move;
          second += weights[row + t] * move * move;
        }
      }
      double delta = first + (second - first * first) / 2;
      double w = omega[point];
      double slope = w / (1 + w);
      omega[point] = w + slope * delta + slope / ((1 + w) * (1 + w)) * delta * delta / 2;
    }
    return true;
  }

  /**
   * ∇Φ = 2(1 + λ_t) a_t + Σ_i 2ω_i e_it b_i, and the diagonal of ∇²Φ, the preconditioner; returns
   * Σ_t ‖(∇Φ)_t‖² / (2(1 + λ_t)). With M_i = 2ω_i (Σ_k π_ik (δ_k − δ_{y_i})(δ_k − δ_{y_i})ᵀ − e_i
   * e_iᵀ) + 2ω_i/(1 + ω_i) e_i e_iᵀ, ∇²Φ = 2 diag(1 + λ) ⊗ I + Σ_i M_i ⊗ b_i b_iᵀ.
   */
  private double gradientAndDiagonal() {
    double[] b = basis;
    for (int point = 0; point < size; point++) {
      int ty = slot[point];
      double w = omega[point];
      double outer = -2 * w * w / (1 + w);
      for (int t = 0; t < q; t++) {
        double e = weights[point * q + t];
        pointTerms[point * q + t] = 2 * w * e;
        // M_tt: 2ω π_t at t ≠ y, 2ω Σ π = −2ω e_y at y, plus the outer term.
        diagonalCurvature[point * q + t] = outer * e * e + 2 * w * (t == ty ? -e : e);
      }
    }
    for (int l = 0; l < r; l++) {
      int at = l * q;
      for (int t = 0; t < q; t++) {
        gradient[at + t] = ridge[t] * a[at + t];
        diagonal[at + t] = ridge[t];
      }
      for (int point = 0; point < size; point++) {
        double bl = b[l * size + point];
        double bl2 = bl * bl;
        int row = point * q;
        for (int t = 0; t < q; t++) {
          gradient[at + t] += pointTerms[row + t] * bl;
          diagonal[at + t] += diagonalCurvature[row + t] * bl2;
        }
      }
    }
    double bound = 0;
    for (int l = 0; l < r; l++) {
      for (int t = 0; t < q; t++) {
        bound += gradient[l * q + t] * gradient[l * q + t] / ridge[t];
      }
    }
    return bound;
  }

  /**
   * The Newton direction −(∇²Φ)⁻¹∇Φ by conjugate gradients preconditioned by the diagonal, at most
   * 2·unknowns iterations (exact arithmetic needs unknowns), with its scores in directionScores
   * summed from those of the conjugate directions that the Hessian products project anyway; returns
   * its slope ∇Φ·direction.
   */
  private double newtonDirection(double forcing) {
    int unknowns = q * r;
    int cells = size * q;
    Arrays.fill(directionScores, 0, cells, 0);
    double gg = 0;
    for (int p = 0; p < unknowns; p++) {
      direction[p] = 0;
      residual[p] = -gradient[p];
      preconditioned[p] = residual[p] / diagonal[p];
      conjugate[p] = preconditioned[p];
      gg += gradient[p] * gradient[p];
    }
    double target = gg * forcing * forcing;
    double rz = dot(residual, preconditioned, unknowns);
    for (int iteration = 0; iteration < 2 * unknowns && rz > 0; iteration++) {
      hessianTimes(conjugate, product);
      double pHp = dot(conjugate, product, unknowns);
      if (!(pHp > 0)) {
        break; // rounding: the Krylov space is exhausted
      }
      double alpha = rz / pHp;
      for (int p = 0; p < cells; p++) {
        directionScores[p] += alpha * projected[p];
      }
      double rr = 0;
      for (int p = 0; p < unknowns; p++) {
        direction[p] += alpha * conjugate[p];
        residual[p] -= alpha * product[p];
        rr += residual[p] * residual[p];
      }
      if (rr <= target) {
        break;
      }
      double rzNext = 0;
      for (int p = 0; p < unknowns; p++) {
        preconditioned[p] = residual[p] / diagonal[p];
        rzNext += residual[p] * preconditioned[p];
      }
      double ratio = rzNext / rz;
      for (int p = 0; p < unknowns; p++) {
        conjugate[p] = preconditioned[p] + ratio * conjugate[p];
      }
      rz = rzNext;
    }
    return dot(gradient, direction, unknowns);
  }

  /**
   * out = ∇²Φ v: v's scores b_i · v_t (left in projected), each point's M_i applied to them, and
   * back onto the b_i.
   */
  private void hessianTimes(double[] v, double[] out) {
    project(v, projected);
    for (int point = 0; point < size; point++) {
      int row = point * q;
      int ty = slot[point];
      double w = omega[point];
      double sy = projected[row + ty];
      double es = 0;
      for (int t = 0; t < q; t++) {
        es += weights[row + t] * projected[row + t];
      }
      double outer = -2 * w * w / (1 + w) * es;
      double yTerm = 0;
      for (int t = 0; t < q; t++) {
        if (t != ty) {
          double pi = 2 * w * weights[row + t] * (projected[row + t] - sy);
          pointTerms[row + t] = pi + outer * weights[row + t];
          yTerm -= pi;
        }
      }
      pointTerms[row + ty] = yTerm + outer * weights[row + ty];
    }
    double[] b = basis;
    for (int l = 0; l < r; l++) {
      int at = l * q;
      for (int t = 0; t < q; t++) {
        out[at + t] = ridge[t] * v[at + t];
      }
      for (int point = 0; point < size; point++) {
        double bl = b[l * size + point];
        int row = point * q;
        for (int t = 0; t < q; t++) {
          out[at + t] += pointTerms[row + t] * bl;
        }
      }
    }
  }

  /** out[i·q + t] = b_i · v_t. */
  private void project(double[] v, double[] out) {
    double[] b = basis;
    for (int point = 0; point < size; point++) {
      int row = point * q;
      Arrays.fill(out, row, row + q, 0);
      for (int l = 0; l < r; l++) {
        double bl = b[l * size + point];
        int at = l * q;
        for (int t = 0; t < q; t++) {
          out[row + t] += bl * v[at + t];
        }
      }
    }
  }

  private static double dot(double[] x, double[] y, int n) {
    double sum = 0;
    for (int p = 0; p < n; p++) {
      sum += x[p] * y[p];
    }
    return sum;
  }
}
