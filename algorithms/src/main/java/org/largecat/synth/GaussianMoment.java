package org.largecat.synth;

/**
 * The moment-generating function of §5.4.3 of the synthetic-categorical-data paper: for independent
 * scalars z ~ N(λ, v) and β ~ N(ψ, w) (v, w variances),
 *
 * <pre>
 *   f = E exp(zβ) = D^(−1/2) exp(g),   D = 1 − v w,   g = (ψ² v + 2ψλ + λ² w) / (2D),
 * </pre>
 *
 * finite only while D > 0. Derived again here (the extraction is garbled in places): E_z exp(zβ) =
 * exp(λβ + vβ²/2), and for β ~ N(ψ, w), E exp(aβ + cβ²) = (1 − 2cw)^(−1/2) exp((cψ² + aψ + a²w/2) /
 * (1 − 2cw)); a = λ, c = v/2 gives f. In logs, h = log f = −½ log D + g, and
 *
 * <pre>
 *   ∂h/∂λ = (ψ + λw) / D                       (so ∂f/∂λ = f (ψ + λw) / D, as the paper's D^(3/2) form says)
 *   ∂h/∂v = w / (2D) + (ψ + λw)² / (2D²)        (the paper's ∂g/∂v numerator has λ² where ψ² belongs:
 *                                                ψ²D + (ψ²v + 2ψλ + λ²w) w = (ψ + λw)²; and its ∂f/∂v
 *                                                divides f ∂g/∂v by 2: ∂f/∂v = f (∂g/∂v + w / (2D)))
 *   ∂²h/∂λ² = w / D,   ∂²h/∂λ∂v = w (ψ + λw) / D²,   ∂²h/∂v² = w² / (2D²) + w (ψ + λw)² / D³.
 * </pre>
 *
 * f is symmetric under (λ, v) ↔ (ψ, w), so the same formulas give the derivatives in (ψ, w) with
 * the pairs swapped. Every derivative is written in h, so callers add exponents and shift them by
 * their maximum before exponentiating; nothing here overflows while D > 0.
 */
final class GaussianMoment {
  /** Entries of {@link #derivatives}: h, ∂h/∂λ, ∂h/∂v, ∂²h/∂λ², ∂²h/∂λ∂v, ∂²h/∂v². */
  static final int COUNT = 6;

  private GaussianMoment() {}

  /** log E exp(zβ), or +∞ where 1 − v w ≤ 0 (the expectation diverges there). */
  static double log(double lambda, double v, double psi, double w) {
    double d = 1 - v * w;
    if (!(d > 0)) {
      return Double.POSITIVE_INFINITY;
    }
    return -0.5 * Math.log(d) + (psi * psi * v + 2 * psi * lambda + lambda * lambda * w) / (2 * d);
  }

  /**
   * Writes h and its first and second derivatives in (λ, v) (see {@link #COUNT}) to {@code
   * out[off..]}; returns false, writing nothing, where 1 − v w ≤ 0.
   */
  static boolean derivatives(double lambda, double v, double psi, double w, double[] out, int off) {
    double d = 1 - v * w;
    if (!(d > 0)) {
      return false;
    }
    double inverse = 1 / d;
    double slope = (psi + lambda * w) * inverse;
    out[off] =
        -0.5 * Math.log(d)
            + (psi * psi * v + 2 * psi * lambda + lambda * lambda * w) * 0.5 * inverse;
    out[off + 1] = slope;
    out[off + 2] = 0.5 * (w * inverse + slope * slope);
    out[off + 3] = w * inverse;
    out[off + 4] = w * slope * inverse;
    out[off + 5] = w * inverse * (0.5 * w * inverse + slope * slope);
    return true;
  }
}
