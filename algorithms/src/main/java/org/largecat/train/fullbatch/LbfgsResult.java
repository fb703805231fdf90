package org.largecat.train.fullbatch;

/**
 * How a run of {@link Lbfgs} ended; the minimiser it found is in the array it was given.
 *
 * @param value f at the point returned
 * @param gradientNorm ‖∇f‖∞ there
 * @param iterations iterations run (points moved to)
 * @param evaluations evaluations of f and ∇f, the first one included
 * @param seconds wall-clock time
 * @param relativeChange the last iteration's (f_{k−1} − f_k) / max(|f_k|, |f_{k−1}|, 1), NaN before
 *     the first
 * @param outcome why it stopped
 */
public record LbfgsResult(
    double value,
    double gradientNorm,
    int iterations,
    int evaluations,
    double seconds,
    double relativeChange,
    Outcome outcome) {

  /** Why a run stopped. */
  public enum Outcome {
    /** ‖∇f‖∞ reached the gradient tolerance. */
    GRADIENT_TOLERANCE,
    /** An iteration lowered f by no more than the relative tolerance. */
    RELATIVE_TOLERANCE,
    /**
     * The line search found no lower f, and the quadratic model's decrease still to come, −∇fᵀd / 2
     * along the quasi-Newton direction d, was within the relative tolerance: f is at the optimum as
     * far as its rounding lets the search see.
     */
    NOISE_FLOOR,
    /**
     * The line search found no lower f, even along −∇f, while the gradient was not small: the point
     * is the best found, not an optimum.
     */
    NO_PROGRESS,
    /** The most iterations ran. */
    MAX_ITERATIONS,
    /** The most evaluations ran. */
    MAX_EVALUATIONS,
    /** The time ran out. */
    MAX_SECONDS;

    /** Whether the point is an optimum as far as the tolerances ask. */
    public boolean converged() {
      return this == GRADIENT_TOLERANCE || this == RELATIVE_TOLERANCE || this == NOISE_FLOOR;
    }
  }
}
