package org.largecat.train.fullbatch;

/**
 * A step length α along a descent direction that satisfies the strong Wolfe conditions (Nocedal and
 * Wright, Numerical Optimization, 2nd ed., Eq. 3.7): sufficient decrease φ(α) ≤ φ(0) + c₁ α φ′(0)
 * and curvature |φ′(α)| ≤ c₂ |φ′(0)|, where φ(α) = f(x + α d). The search is their Algorithm 3.5:
 * it grows α until it brackets such a step, then Algorithm 3.6 (zoom) narrows the bracket by
 * safeguarded cubic interpolation (their Eq. 3.59).
 */
final class StrongWolfeLineSearch {
  /** c₁ of the sufficient-decrease condition (N&W §3.1 suggests 1e-4). */
  static final double SUFFICIENT_DECREASE = 1e-4;

  /** c₂ of the curvature condition, N&W's value for quasi-Newton directions. */
  static final double CURVATURE = 0.9;

  /** The factor by which a step that is still too short grows. */
  private static final double GROWTH = 4;

  /** An interpolated step keeps at least this fraction of the bracket from each of its ends. */
  private static final double SAFEGUARD = 0.1;

  /** One evaluation of φ: the step, φ(α) and φ′(α), and which gradient buffer holds ∇f there. */
  record Point(double alpha, double value, double slope, int buffer) {}

  /** φ along the direction. */
  interface Line {
    /**
     * Evaluates φ at {@code alpha}, keeping the gradient of {@code keep} (a point evaluated before)
     * intact.
     */
    Point at(double alpha, Point keep);
  }

  /**
   * The outcome: {@code step} is the point to move to, null when no trial lowered φ; {@code wolfe}
   * whether it satisfies both conditions (else only sufficient decrease, when the evaluations ran
   * out).
   */
  record Result(Point step, boolean wolfe, int evaluations) {}

  private final Line line;
  private final Point start;
  private final int maxEvaluations;
  private int evaluations;

  private StrongWolfeLineSearch(Line line, Point start, int maxEvaluations) {
    this.line = line;
    this.start = start;
    this.maxEvaluations = maxEvaluations;
  }

  /**
   * Searches from φ(0) = {@code value}, φ′(0) = {@code slope} &lt; 0, trying {@code firstStep}
   * first and evaluating φ at most {@code maxEvaluations} times.
   */
  static Result search(
      Line line, double value, double slope, double firstStep, int maxEvaluations) {
    if (!(slope < 0)) {
      throw new IllegalArgumentException("not a descent direction: φ'(0) = " + slope);
    }
    return new StrongWolfeLineSearch(line, new Point(0, value, slope, -1), maxEvaluations)
        .bracket(firstStep);
  }

  /** Algorithm 3.5: longer steps until one satisfies both conditions or a bracket is found. */
  private Result bracket(double firstStep) {
    Point previous = start;
    double alpha = firstStep;
    while (evaluations < maxEvaluations) {
      Point trial = evaluate(alpha, previous);
      if (!sufficientDecrease(trial) || (previous != start && trial.value() >= previous.value())) {
        return zoom(previous, trial);
      }
      if (curvature(trial)) {
        return new Result(trial, true, evaluations);
      }
      if (trial.slope() >= 0) {
        return zoom(trial, previous);
      }
      previous = trial;
      alpha *= GROWTH;
    }
    return new Result(previous == start ? null : previous, false, evaluations);
  }

  /**
   * Algorithm 3.6. {@code low} satisfies sufficient decrease and has the least φ of the trials that
   * do; φ′(low) (high − low) &lt; 0, so a step satisfying both conditions lies between them.
   */
  private Result zoom(Point low, Point high) {
    while (evaluations < maxEvaluations) {
      double alpha = interpolate(low, high);
      if (alpha == low.alpha() || alpha == high.alpha()) {
        break; // the bracket is as narrow as double steps can be
      }
      Point trial = evaluate(alpha, low);
      if (!sufficientDecrease(trial) || trial.value() >= low.value()) {
        high = trial;
      } else {
        if (curvature(trial)) {
          return new Result(trial, true, evaluations);
        }
        if (trial.slope() * (high.alpha() - low.alpha()) >= 0) {
          high = low;
        }
        low = trial;
      }
    }
    return new Result(low == start ? null : low, false, evaluations);
  }

  private Point evaluate(double alpha, Point keep) {
    evaluations++;
    return line.at(alpha, keep);
  }

  private boolean sufficientDecrease(Point p) {
    return p.value() <= start.value() + SUFFICIENT_DECREASE * p.alpha() * start.slope();
  }

  private boolean curvature(Point p) {
    return Math.abs(p.slope()) <= -CURVATURE * start.slope();
  }

  /**
   * The minimiser of the cubic through φ and φ′ at both ends (N&W Eq. 3.59), kept at least {@link
   * #SAFEGUARD} of the bracket away from its ends; the midpoint when the cubic has no minimiser
   * there.
   */
  static double interpolate(Point a, Point b) {
    double d1 = a.slope() + b.slope() - 3 * (a.value() - b.value()) / (a.alpha() - b.alpha());
    double discriminant = d1 * d1 - a.slope() * b.slope();
    double lo = Math.min(a.alpha(), b.alpha());
    double hi = Math.max(a.alpha(), b.alpha());
    double alpha = Double.NaN;
    if (discriminant >= 0) {
      double d2 = Math.copySign(Math.sqrt(discriminant), b.alpha() - a.alpha());
      alpha =
          b.alpha()
              - (b.alpha() - a.alpha()) * (b.slope() + d2 - d1) / (b.slope() - a.slope() + 2 * d2);
    }
    double margin = SAFEGUARD * (hi - lo);
    if (!(alpha >= lo + margin && alpha <= hi - margin)) {
      alpha =
          Double.isNaN(alpha) ? lo + (hi - lo) / 2 : Math.clamp(alpha, lo + margin, hi - margin);
    }
    return alpha;
  }
}
