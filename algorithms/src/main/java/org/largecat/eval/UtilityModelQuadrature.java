package org.largecat.eval;

import java.util.Arrays;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.SpecialFunctions;
import org.largecat.kernel.VectorOps;

/**
 * Exact log-probabilities of an additive-noise categorical model (multinomial probit, multinomial
 * logistic, softmax) by one-dimensional quadrature of augment-and-reduce Eq. 5 in log space: the
 * test log-likelihood of the true class, or all K log-probabilities of one utility vector psi.
 *
 * <p><b>The integrals.</b> With t = eps + psi_y, Eq. 5 reads p(y) = int h(t - psi_y) e^{G(t)} dt
 * with h = f/F and G(t) = sum_k log F(t - psi_k): e^G is the cdf of max_k (psi_k + eps_k), and G is
 * shared by every class, so one batched log F over the K classes at a node serves all K integrals.
 * Each integrand L_y(t) = G(t) + log h(t - psi_y) is log-concave (see {@link NoiseDistribution});
 * its mode lies at or right of psi_y and moves right as psi_y grows, so the modes of the classes of
 * largest and smallest utility bracket every other mode.
 *
 * <p><b>Why one node set fitted to the top class is not enough.</b> Classes far below the top put
 * their mass elsewhere, and more narrowly: for K = 2 Gaussian with margin 60 the low class peaks at
 * the midpoint, 30 below the top class's peak; with 10^4 classes N(0, 1) and one at -60, the low
 * class peaks at t = 3.97 with width 0.088, the top class at 5.46 with width 0.41 (17 of the low
 * class's widths away). A rule fitted to the top class (Gauss-Hermite at its mode, say) gets such
 * classes wrong by hundreds of nats.
 *
 * <p><b>The scheme.</b> The trapezoid rule on a uniform grid t_j = c + j * step, one grid shared by
 * a group of classes, adapted until every class of the group is resolved:
 *
 * <ol>
 *   <li>Start: the modes and widths 1/sqrt(-L_y'') of the group's classes of largest and smallest
 *       utility, by Newton's method safeguarded by bisection (L_y' is decreasing; each step is one
 *       batched pass of h over K). The grid spans both modes and 8 widths beyond, at half the
 *       smaller width (at most 1). If that takes more than 160 nodes (modes far apart for their
 *       widths, as when a few outliers sit hundreds away), the group is split at the middle of its
 *       utility range and each half gets its own grid; all classes start as one group.
 *   <li>Tails: by concavity, beyond an end node L_y lies below the chord through the last two
 *       nodes, so the neglected tail is at most e^{L_y(end)} / |chord slope|; the grid grows on a
 *       side until that bound is below 1e-12 of every class's integral.
 *   <li>Halving: the midpoints are added (the old nodes are kept) and, for every class, the new sum
 *       is compared with the old; the grid is final when they agree to 1e-7 for every class.
 * </ol>
 *
 * No class of a group starts under-resolved, which is what makes the halving test trustworthy (a
 * grid much coarser than a peak can agree with its own halving by accident): the curvature -L_y''
 * at a class's mode is exactly 1 for the Gumbel (G' = 1 there); at most 5/4 for the logistic (-G''
 * <= G' = sigma(t - psi_y) < 1 there); and for the Gaussian at most 1 more than the group's bottom
 * class's, since -G'' = sum_k (1 - Var(Z | Z < t - psi_k)) decreases in t and the modes increase
 * with psi_y. So the starting step is at most 1.1 widths of any class in the group.
 *
 * <p>The integrands are analytic in a strip around the real axis and decay at least exponentially,
 * so the trapezoid error falls like exp(-const / step): each halving squares the relative error,
 * and when two successive grids agree to 1e-7 the finer one is accurate to about 1e-14 relative.
 * Cost per node: K log F evaluations and one K-wide exp, batched through the SPI (log h comes from
 * log F by arithmetic). For K = 10^4, 170 to 440 K-wide passes (nodes plus Newton steps; see {@link
 * #lastPasses()}) for all K classes, and up to 750 with outliers hundreds away; 90 to 200 for one
 * class. A logistic class M below the top has a flat integrand M wide, which takes about 2M nodes.
 * Sums over nodes are in log space, shifted by the running maximum per class; nothing is
 * exponentiated before shifting.
 *
 * <p><b>Accuracy and domain.</b> |error in log p| at most 1e-6 for K up to 10^4, margins |psi_y -
 * psi_k| up to 60, and outliers up to 300 away. Measured against a 30-digit mpmath oracle (see
 * {@code UtilityModelQuadratureTest}: 26 utility vectors, K from 2 to 10^4, 109 truths per noise,
 * each checked on every class that shares it): worst 8.7e-12 for the Gaussian, 6.2e-13 for the
 * logistic; the Gumbel agrees with the closed-form log-softmax to 6.1e-13. For the Gumbel, log F
 * underflows to -Inf where t - psi_k < -709, so utilities more than about 700 apart are out of its
 * domain. A call that would need more than 2^17 nodes throws {@link ArithmeticException} rather
 * than return an unconverged value.
 *
 * <p>Not thread-safe: one evaluator per thread, reused across examples; no allocation after
 * construction.
 */
public final class UtilityModelQuadrature {
  /** Elements of the batched log F buffer: a few nodes of K classes each per kernel call. */
  private static final int BATCH_ELEMENTS = 1 << 16;

  private static final int MAX_ROWS = 16;

  /** Two successive grids must agree this closely, relative, for every tracked class. */
  private static final double HALVING_TOLERANCE = 1e-7;

  /** Bound on each neglected tail relative to the class's integral. */
  private static final double TAIL_TOLERANCE = 1e-12;

  private static final int MAX_NODES = 1 << 17;

  /** A group of classes whose first grid would need more nodes than this is split by utility. */
  private static final int SPLIT_NODES = 160;

  /** The initial grid reaches this many widths beyond the extreme modes. */
  private static final double START_WIDTHS = 8;

  /** Widths are capped here: logistic integrands far below the top are flat over the margin. */
  private static final double MAX_WIDTH = 4;

  private static final double MAX_STEP = 1;
  private static final int MAX_MODE_STEPS = 200;

  private final VectorOps vectorOps;
  private final SpecialFunctions specialFunctions;
  private final NoiseDistribution noise;
  private final int maxClasses;
  private final int rows;
  private final double[] ones;

  /** rows x k: t - psi_k, then log h(t - psi_y) and the log-integrand L_y(t) of tracked classes. */
  private final double[] argument;

  /** rows x k: log F(t - psi_k); during the mode search, h(t - psi_k). */
  private final double[] logCdf;

  private final double[] shifted;

  /** Running log-sum-exp of the nodes of one pass, per class: max and sum of exp(L - max). */
  private final double[] passMax;

  private final double[] passSum;

  /** log of the sum of e^{L_y} over every node of the grid so far, per class. */
  private final double[] total;

  private double[] psi;
  private int off;
  private int k;
  private int first;
  private int count;

  /** The utility interval of the classes the current grid serves. */
  private double low;

  private double high;

  /** Where a logProbabilities call writes; null for logProbability. */
  private double[] out;

  private int outOff;
  private double center;
  private double step;
  private long lo;
  private long hi;
  private int passes;
  private double slope;
  private double curvature;

  /**
   * An evaluator for utility vectors of up to {@code maxClasses} classes.
   *
   * @throws IllegalArgumentException if maxClasses is not positive
   */
  public UtilityModelQuadrature(Kernels kernels, NoiseDistribution noise, int maxClasses) {
    if (kernels == null || noise == null) {
      throw new NullPointerException(
          "UtilityModelQuadrature: " + (kernels == null ? "kernels" : "noise") + " is null");
    }
    if (maxClasses < 1) {
      throw new IllegalArgumentException(
          "UtilityModelQuadrature: maxClasses = " + maxClasses + " must be positive");
    }
    this.vectorOps = kernels.vectorOps();
    this.specialFunctions = kernels.specialFunctions();
    this.noise = noise;
    this.maxClasses = maxClasses;
    this.rows = Math.max(1, Math.min(MAX_ROWS, BATCH_ELEMENTS / maxClasses));
    this.ones = new double[maxClasses];
    Arrays.fill(ones, 1);
    this.argument = new double[rows * maxClasses];
    this.logCdf = new double[rows * maxClasses];
    this.shifted = new double[maxClasses];
    this.passMax = new double[maxClasses];
    this.passSum = new double[maxClasses];
    this.total = new double[maxClasses];
  }

  public NoiseDistribution noise() {
    return noise;
  }

  /**
   * log p(y | psi) for psi = {@code psi[off..off+k)}.
   *
   * @throws IllegalArgumentException if k is not in [1, maxClasses], y is not in [0, k), or a
   *     utility is NaN or infinite (the message names its index)
   */
  public double logProbability(double[] psi, int off, int k, int y) {
    checkUtilities("logProbability", psi, off, k);
    if (y < 0 || y >= k) {
      throw new IllegalArgumentException(
          "logProbability: y = " + y + " is not a class in [0, " + k + ")");
    }
    if (k == 1) {
      return 0;
    }
    out = null;
    integrate(psi, off, k, y, 1);
    return Math.log(step) + total[y];
  }

  /**
   * out[outOff + y] = log p(y | psi) for every class y < k, psi = {@code psi[off..off+k)}; the
   * probabilities sum to 1 within the quadrature's accuracy.
   *
   * @throws IllegalArgumentException as {@link #logProbability}, and if out is too short
   */
  public void logProbabilities(double[] psi, int off, int k, double[] out, int outOff) {
    checkUtilities("logProbabilities", psi, off, k);
    if (out == null) {
      throw new NullPointerException("logProbabilities: out is null");
    }
    if (outOff < 0 || outOff > out.length - k) {
      throw new IndexOutOfBoundsException(
          "logProbabilities: out has length "
              + out.length
              + " but the call writes "
              + k
              + " elements from offset "
              + outOff);
    }
    if (k == 1) {
      out[outOff] = 0;
      return;
    }
    this.out = out;
    this.outOff = outOff;
    try {
      integrate(psi, off, k, 0, k);
    } finally {
      this.out = null;
    }
  }

  /**
   * K-wide batched passes of the last call: quadrature nodes plus mode-search steps; each costs k
   * log F (or k hazard) evaluations.
   */
  public int lastPasses() {
    return passes;
  }

  private void checkUtilities(String op, double[] psi, int off, int k) {
    if (psi == null) {
      throw new NullPointerException(op + ": psi is null");
    }
    if (k < 1 || k > maxClasses) {
      throw new IllegalArgumentException(
          op + ": k = " + k + " is not in [1, maxClasses = " + maxClasses + "]");
    }
    if (off < 0 || off > psi.length - k) {
      throw new IndexOutOfBoundsException(
          op
              + ": psi has length "
              + psi.length
              + " but the call reads "
              + k
              + " elements from offset "
              + off);
    }
    for (int i = 0; i < k; i++) {
      if (!Double.isFinite(psi[off + i])) {
        throw new IllegalArgumentException(
            op + ": psi[" + (off + i) + "] (class " + i + ") = " + psi[off + i] + " is not finite");
      }
    }
  }

  /**
   * Leaves step and total[y] for the tracked classes, those y in [first, first+count) with psi_y in
   * [low, high], such that log p(y) = log(step) + total[y].
   */
  private void integrate(double[] psi, int off, int k, int first, int count) {
    this.psi = psi;
    this.off = off;
    this.k = k;
    this.first = first;
    this.count = count;
    passes = 0;
    try {
      double lowest = Double.POSITIVE_INFINITY;
      double highest = Double.NEGATIVE_INFINITY;
      for (int y = first; y < first + count; y++) {
        lowest = Math.min(lowest, psi[off + y]);
        highest = Math.max(highest, psi[off + y]);
      }
      integrateGroup(lowest, highest);
    } finally {
      this.psi = null;
    }
  }

  /**
   * Integrates the tracked classes with utility in [low, high] on one grid, or, when their modes
   * are so far apart for their widths that one uniform grid would need more than SPLIT_NODES nodes,
   * splits the utility interval in two and integrates each half on its own grid (modes increase
   * with psi_y, so each half's modes are bracketed by its own extreme classes). Groups with a flat
   * integrand (a logistic class far below the top, flat over the whole margin) are not split: every
   * grid of theirs would have to span the flat stretch again.
   */
  private void integrateGroup(double low, double high) {
    this.low = low;
    this.high = high;
    int top = -1;
    int bottom = -1;
    for (int y = first; y < first + count; y++) {
      if (tracked(y)) {
        top = top < 0 || psi[off + y] > psi[off + top] ? y : top;
        bottom = bottom < 0 || psi[off + y] < psi[off + bottom] ? y : bottom;
      }
    }
    double topMode = findMode(top);
    double topWidth = width();
    double bottomMode = topMode;
    double bottomWidth = topWidth;
    if (psi[off + bottom] != psi[off + top]) {
      bottomMode = findMode(bottom);
      bottomWidth = width();
    }
    step = Math.min(MAX_STEP, 0.5 * Math.min(topWidth, bottomWidth));
    hi = (long) Math.ceil(START_WIDTHS * topWidth / step);
    lo = -(long) Math.ceil((topMode - bottomMode + START_WIDTHS * bottomWidth) / step);
    boolean plateau = Math.max(topWidth, bottomWidth) >= MAX_WIDTH;
    if (hi - lo > SPLIT_NODES && psi[off + bottom] != psi[off + top] && !plateau) {
      double split = 0.5 * (psi[off + bottom] + psi[off + top]);
      split = split == psi[off + top] ? psi[off + bottom] : split;
      integrateGroup(psi[off + bottom], split);
      integrateGroup(Math.nextUp(split), psi[off + top]);
      return;
    }
    center = topMode;
    Arrays.fill(total, first, first + count, Double.NEGATIVE_INFINITY);
    addNodes(center + lo * step, step, hi - lo + 1);
    do {
      extendTails();
    } while (!halve());
    if (out != null) {
      double logStep = Math.log(step);
      for (int y = first; y < first + count; y++) {
        if (tracked(y)) {
          out[outOff + y] = logStep + total[y];
        }
      }
    }
  }

  private boolean tracked(int y) {
    double v = psi[off + y];
    return v >= low && v <= high;
  }

  /** 1/sqrt(-L'') at the mode just found, capped at MAX_WIDTH. */
  private double width() {
    return 1 / Math.sqrt(Math.max(-curvature, 1 / (MAX_WIDTH * MAX_WIDTH)));
  }

  /**
   * The maximum of the concave L_y, leaving slope and curvature there. L_y' >= 0 at psi_y (the
   * class's own log F term cancels its log h slope there), so psi_y brackets it on the left.
   */
  private double findMode(int y) {
    double a = psi[off + y];
    double b = a + 1;
    derivatives(b, y);
    for (double s = 2; slope > 0; s *= 2) {
      a = b;
      b = a + s;
      derivatives(b, y);
    }
    double t = b;
    for (int i = 0; i < MAX_MODE_STEPS; i++) {
      double next = t - slope / curvature;
      if (!(next > a && next < b)) {
        next = 0.5 * (a + b);
      }
      boolean done = Math.abs(next - t) <= 1e-12 * (1 + Math.abs(t));
      t = next;
      derivatives(t, y);
      if (slope > 0) {
        a = t;
      } else if (slope < 0) {
        b = t;
      }
      if (done || slope == 0 || b - a <= 1e-12 * (1 + Math.abs(a))) {
        break;
      }
    }
    return t;
  }

  /**
   * slope = L_y'(t) and curvature = L_y''(t): G' = sum h, G'' = sum h (log h)', one pass of h over
   * K.
   */
  private void derivatives(double t, int y) {
    passes++;
    for (int i = 0; i < k; i++) {
      argument[i] = t - psi[off + i];
    }
    double[] hazard = logCdf;
    noise.hazards(specialFunctions, k, argument, hazard);
    double g1 = vectorOps.dot(k, hazard, 0, ones, 0);
    for (int i = 0; i < k; i++) {
      argument[i] = hazard[i] * noise.logHazardSlope(argument[i], hazard[i]);
    }
    double g2 = vectorOps.dot(k, argument, 0, ones, 0);
    double x = t - psi[off + y];
    double h = noise.hazard(x);
    slope = noise.logHazardSlope(x, h) + g1;
    curvature = noise.logHazardCurvature(x, h) + g2;
  }

  /** Grows the grid at each end whose tail bound fails for some class, until none fails. */
  private void extendTails() {
    while (true) {
      boolean right = tailNegligible(center + hi * step, -step);
      boolean left = tailNegligible(center + lo * step, step);
      if (right && left) {
        return;
      }
      long grow = Math.max(8, (hi - lo) / 2);
      if (!right) {
        addNodes(center + (hi + 1) * step, step, grow);
        hi += grow;
      }
      if (!left) {
        addNodes(center + (lo - grow) * step, step, grow);
        lo -= grow;
      }
    }
  }

  /**
   * Whether, for every tracked class, the integral beyond the end node tEnd is below TAIL_TOLERANCE
   * of the class's integral: by concavity L_y beyond tEnd lies below the chord through tEnd and
   * tEnd + inward, whose slope must point down and whose tail integral e^{L(tEnd)}/|slope| is
   * small.
   */
  private boolean tailNegligible(double tEnd, double inward) {
    passes += 2;
    logIntegrands(tEnd, inward, 2);
    double logBound = Math.log(TAIL_TOLERANCE * step);
    for (int y = first; y < first + count; y++) {
      double end = argument[y];
      if (!tracked(y) || end == Double.NEGATIVE_INFINITY) {
        continue;
      }
      double outwardSlope = (end - argument[k + y]) / step;
      if (!(outwardSlope < 0) || end - Math.log(-outwardSlope) > logBound + total[y]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Adds the midpoints of the grid and halves the step; returns whether the sums before and after
   * agree to HALVING_TOLERANCE for every tracked class. With S the old sum and M the midpoints'
   * sum, (T_new - T_old) / T_new = (M - S) / (M + S) = tanh((log M - log S) / 2).
   */
  private boolean halve() {
    double half = 0.5 * step;
    addNodesToPass(center + (2 * lo + 1) * half, step, hi - lo);
    boolean converged = true;
    for (int y = first; y < first + count; y++) {
      double midpoints = passLog(y);
      if (!tracked(y)
          || midpoints == Double.NEGATIVE_INFINITY && total[y] == Double.NEGATIVE_INFINITY) {
        continue; // not in this group, or p(y) underflows (only the Gumbel's log F can)
      }
      if (!(Math.abs(Math.tanh(0.5 * (midpoints - total[y]))) <= HALVING_TOLERANCE)) {
        converged = false;
      }
    }
    mergePass();
    step = half;
    lo *= 2;
    hi *= 2;
    return converged;
  }

  /** Adds n nodes t0, t0 + dt, ... to every tracked class's total. */
  private void addNodes(double t0, double dt, long n) {
    addNodesToPass(t0, dt, n);
    mergePass();
  }

  private void addNodesToPass(double t0, double dt, long n) {
    passes += (int) n;
    if (passes > MAX_NODES) {
      throw new ArithmeticException(
          "UtilityModelQuadrature: "
              + noise
              + " quadrature of "
              + k
              + " classes needs more than "
              + MAX_NODES
              + " nodes (step "
              + step
              + "); the utilities are outside its domain");
    }
    Arrays.fill(passMax, first, first + count, Double.NEGATIVE_INFINITY);
    Arrays.fill(passSum, first, first + count, 0);
    for (long done = 0; done < n; done += rows) {
      int m = (int) Math.min(rows, n - done);
      logIntegrands(t0 + done * dt, dt, m);
      for (int r = 0; r < m; r++) {
        accumulate(r * k);
      }
    }
  }

  /**
   * Rows r < m of argument: L_y(t0 + r dt) = G + log h(t - psi_y) for the tracked classes, with log
   * F of all k classes of all m nodes in one batched call.
   */
  private void logIntegrands(double t0, double dt, int m) {
    for (int r = 0; r < m; r++) {
      double t = t0 + r * dt;
      int row = r * k;
      for (int i = 0; i < k; i++) {
        argument[row + i] = t - psi[off + i];
      }
    }
    specialFunctions.apply(noise.logCdfFunction(), m * k, argument, 0, logCdf, 0);
    for (int r = 0; r < m; r++) {
      int row = r * k;
      double g = vectorOps.dot(k, logCdf, row, ones, 0);
      noise.logHazards(count, argument, logCdf, row + first);
      for (int i = row + first; i < row + first + count; i++) {
        argument[i] += g;
      }
    }
  }

  /** Folds one node's log-integrands (argument[row + y]) into the running per-class log-sum-exp. */
  private void accumulate(int row) {
    for (int y = first; y < first + count; y++) {
      double v = argument[row + y];
      shifted[y] = v == Double.NEGATIVE_INFINITY ? v : -Math.abs(v - passMax[y]);
    }
    specialFunctions.apply(ElementwiseFunction.EXP, count, shifted, first, shifted, first);
    for (int y = first; y < first + count; y++) {
      double v = argument[row + y];
      if (v <= passMax[y]) {
        passSum[y] += shifted[y];
      } else {
        passSum[y] = passSum[y] * shifted[y] + 1;
        passMax[y] = v;
      }
    }
  }

  private double passLog(int y) {
    return passMax[y] + Math.log(passSum[y]);
  }

  private void mergePass() {
    for (int y = first; y < first + count; y++) {
      double a = total[y];
      double b = passLog(y);
      double max = Math.max(a, b);
      total[y] =
          max == Double.NEGATIVE_INFINITY ? max : max + Math.log1p(Math.exp(-Math.abs(a - b)));
    }
  }
}
