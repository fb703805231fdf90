package org.largecat.train.doublesum;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.largecat.data.Dataset;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Trainer;

/**
 * Implicit SGD on fixed mini-batches of n datapoints and m sampled classes
 * (unbiased-scalable-softmax App. F.3), re-derived here on the mean scale with the extended rows
 * w̃_k = (w_k, b_k) and x̃ = (x, 1); the extracted text of Eqs. 19–21 is garbled, and the ridge is
 * handled in a slightly different but equivalent parametrisation, so the derivation is written out.
 *
 * <p><b>Mini-batches.</b> A seeded permutation cuts the datapoints once into J = ⌈N/n⌉ batches S_j.
 * L_j is the set of their distinct labels; C is m classes drawn uniformly without replacement from
 * the K − |L_j| others (all of them if fewer), ρ_j = (K − |L_j|)/|C|. Batch j is drawn uniformly
 * (each epoch visits every batch once, in a fresh order), so with s = J/N
 *
 * <pre>  f_{j,C} = s Σ_{i∈S_j} (u_i + e^{−u_i} d_i) + (μ/2) Σ_{k∈L_j∪C} β_k ‖w̃_k‖²,
 *  d_i = 1 + Σ_{k∈L_j−y_i} e^{z_ik} + ρ_j Σ_{k∈C} e^{z_ik},  z_ik = x̃_i·(w̃_k − w̃_{y_i}),</pre>
 *
 * is unbiased for f/N of Eq. 5 when 1/β_k = P(k ∈ L_j ∪ C) = (1/J) Σ_j (1[k ∈ L_j] + 1[k ∉
 * L_j]|C_j|/(K − |L_j|)).
 *
 * <p><b>The implicit step</b> minimises 2η f_{j,C} + ‖u − ũ‖² + ‖W − W̃‖². In u_i alone, with c =
 * ηs, the minimiser is u_i = ũ_i − c + ω_i, ω_i = W0(c d_i e^{c − ũ_i}), and the minimum is (1 +
 * ω_i)² up to a constant (the paper's Eq. 19). In W: with λ_k = ημβ_k and γ_k = 1/(1 + λ_k), write
 * w̃_k = γ_k w̃_k^old + V a_k, V an orthonormal basis of span{x̃_i : i ∈ S_j} and x̃_i = V b_i.
 * Then ‖w̃_k − w̃_k^old‖² + λ_k‖w̃_k‖² = (1 + λ_k)‖a_k‖² + const: the shrink γ_k is the exact
 * minimiser outside the span (the paper's Eq. 20) and, inside it, cancels the linear term the paper
 * carries in Eq. 21. So the step solves, over A = (a_k) for k ∈ L_j ∪ C,
 *
 * <pre>  Φ(A) = Σ_{i∈S_j} (1 + W0(e^{ζ_i(A)}))² + Σ_k (1 + λ_k) ‖a_k‖²,
 *  ζ_i(A) = log c + c − ũ_i + log d_i(A),  z_ik(A) = γ_k x̃_i·w̃_k^old − γ_{y_i} x̃_i·w̃_{y_i}^old + b_i·(a_k − a_{y_i}),
 * </pre>
 *
 * strongly convex (log d_i is a log-sum-exp of affine functions and t ↦ (1 + W0(e^t))² is convex
 * and increasing). With ω_i = W0(e^{ζ_i}) and π_ik the softmax weights of the terms of d_i, ∂Φ/∂ζ_i
 * = 2ω_i, ∂²Φ/∂ζ_i² = 2ω_i/(1 + ω_i), ∇ζ_i = e_i ⊗ b_i with e_i = Σ_k π_ik(δ_k − δ_{y_i}), and
 * ∇²ζ_i = (Σ_k π_ik (δ_k − δ_{y_i})(δ_k − δ_{y_i})ᵀ − e_i e_iᵀ) ⊗ b_i b_iᵀ.
 *
 * <p><b>u_i's own rate.</b> The step gives u_i the rate c = ηs on its term of f_{j,C}, s = J/N ≈
 * 1/n of W's, once an epoch, so u_i lags log d_i as W moves, and a u_i above log d_i shrinks its
 * datapoint's weight in W's gradient by e^{log d_i − u_i} (one below enlarges it). When u_i's own
 * rate η_u ({@link DoubleSumSpec#uRate}) is larger than c, the step is followed, as the one-pair
 * Implicit SGD's is, by the implicit step in u_i alone at the rate left, c' = η_u − c, on the same
 * term at the new weights: u_i ← u_i − c' + W0(c' d_i e^{c' − u_i}) (one incremental proximal step
 * per term, Bertsekas 2011), where log d_i − u_i = log ω_i − log c at the solution, so it costs no
 * scores. A stopping rule's step reductions divide η, not η_u: the u-alone step is stable at any
 * rate, and a smaller one would only let u_i fall further behind W.
 *
 * <p><b>Solver</b> ({@link ImplicitStepNewton}). Newton's method with a backtracking (Armijo) line
 * search on the (|L_j| + |C|)·rank unknowns, stopped when half the squared Newton decrement, the
 * predicted gap to the minimum, is below {@code innerTolerance}·max(1, Φ) (known before the
 * direction from an upper bound on the decrement); that last Newton step is still taken, its
 * direction just accurate enough to leave a gap below innerTolerance²·max(1, Φ), and ω_i after it
 * come from a Taylor expansion rather than another evaluation of Φ. The Newton system is solved
 * inexactly, to a relative residual that shrinks with the gradient, by conjugate gradients on
 * products with the Hessian above, each one projection of the direction onto the b_i and one back,
 * O(|S_j| q rank); the Hessian itself, (q·rank)² entries, and its O((q·rank)³) factorisation are
 * never formed. The problem is the paper's small strongly convex one: near the identity ×2 for
 * small η (ω_i ≈ ηs), so a few iterations, preconditioned by the diagonal, do. Every quantity is
 * formed in log space (log d_i by log-sum-exp, ω_i = W0(e^{ζ_i}) by the Wright omega kernel), so no
 * point overflows however large z − u is; that is the purpose of the paper's safe starting point
 * (App. F.3.5, the linear program 22), and here A = 0, the old weights after the ridge shrink, is
 * already safe: Φ(0) is finite and its gradient is linear, not exponential, in z − u.
 *
 * <p><b>Basis</b> (App. F.3.4, {@link MiniBatch}): V = X̃ Tᵀ, computed once per mini-batch, so a
 * move V a_k is the combination Σ_i (Tᵀ a_k)_i x̃_i of the batch's own rows, sparse when x is.
 *
 * <p><b>Sparse update</b> (App. F.3.3): each extended row is kept as w̃_k = g_k r_k; the shrink
 * multiplies g_k, and the move adds (1/g_k) Σ_i (Tᵀ a_k)_i x̃_i to r_k, so a step touches only the
 * batch's nonzero features. r_k is rescaled when g_k falls below 1/64, and the model's rows are
 * brought up to date (r_k ← g_k r_k) at the end of every epoch and on {@link #close}.
 *
 * <p><b>Averaging</b> ({@link DoubleSumSpec#averaged}): the rows r_k and scales g_k are then a
 * private iterate, whose {@link IterateAverage} (lazy in g_k as the rows are) the caller's model
 * receives at the end of each epoch and on {@link #close}.
 */
final class MiniBatchImplicitTrainer implements Trainer {
  private static final double RESCALE_BELOW = 1.0 / 64;

  /** How far η_u must exceed c, relative, for the u-alone step: less is rounding of equal rates. */
  private static final double RATE_ROUNDING = 1e-12;

  private final AugmentedData data;

  /** The caller's model: the iterate itself, or the average written at each epoch's end. */
  private final LinearModel model;

  /** The rows r_k the steps move: the caller's model unless iterates are averaged. */
  private final LinearModel iterate;

  /** The average of the iterates, or null when the caller's model is the iterate. */
  private final IterateAverage average;

  /** The rate per unit of {@link DoubleSumSpec#learningRate}: 1, or 1/mean ‖x̃_i‖². */
  private final double rateScale;

  private final DoubleSumSpec options;
  private final Kernels kernels;
  private final int batches;
  private final int[] batchStart;
  private final int[] batchPoints;
  private final MiniBatch[] batch;
  private final double[] beta;
  private final double[] u;
  private final double[] rowScale;
  private final int[] batchOrder;
  private final int blockSize;
  private final int[] itemBatch;
  private final int[] itemRows;
  private final int[] itemRowStart;
  private final int[] itemClasses;
  private final double[] itemLoss;
  private final int[] mark;
  private int markStamp;
  private final ParallelWaves waves;
  private final BatchStep[] steps;
  private final AtomicLong newtonIterations = new AtomicLong();
  private final AtomicLong solves = new AtomicLong();
  private int position;
  private long epoch = -1;
  private long iteration;
  private int blockStart;
  private int blockLength;
  private double rate;

  /** η_u of the epoch, u_i's own rate on its term u_i + e^{−u_i} d_i. */
  private double uRate;

  /** The product of the step reductions of {@link #scaleStepSize}. */
  private double stepScale = 1;

  MiniBatchImplicitTrainer(
      Dataset dataset, LinearModel model, DoubleSumSpec options, Kernels kernels) {
    this.data = new AugmentedData(dataset, model);
    this.model = model;
    this.iterate = options.averaged() ? IterateAverage.iterateOf(model) : model;
    this.average = options.averaged() ? new IterateAverage(data) : null;
    this.rateScale = options.normalisedRate() ? 1 / data.meanSquaredNorm : 1;
    this.options = options;
    this.kernels = kernels;
    int n = Math.min(options.batchPoints(), data.rows);
    int m = options.batchClasses();
    this.batches = (data.rows + n - 1) / n;
    this.batchStart = new int[batches + 1];
    this.batchPoints = new int[data.rows];
    SplittableRandom cut = new SplittableRandom(options.seed() ^ 0x6A09E667F3BCC909L);
    for (int i = 0; i < data.rows; i++) {
      int j = cut.nextInt(i + 1);
      batchPoints[i] = batchPoints[j];
      batchPoints[j] = i;
    }
    this.batch = new MiniBatch[batches];
    float[] scratch = new float[Math.max(1, data.columns)];
    for (int j = 0; j < batches; j++) {
      batchStart[j + 1] = Math.min(data.rows, (j + 1) * n);
      batch[j] =
          MiniBatch.of(
              data,
              kernels,
              batchPoints,
              batchStart[j],
              batchStart[j + 1] - batchStart[j],
              scratch);
    }
    this.beta = batchClassWeights(m);
    this.u = new double[data.rows];
    Arrays.fill(u, Math.log(data.classes));
    this.rowScale = new double[data.classes];
    Arrays.fill(rowScale, 1);
    this.batchOrder = new int[batches];
    this.blockSize = Math.min(options.blockSize(), batches);
    int maxRows = n + m;
    this.itemBatch = new int[blockSize];
    this.itemRows = new int[blockSize * maxRows];
    this.itemRowStart = new int[blockSize + 1];
    this.itemClasses = new int[blockSize];
    this.itemLoss = new double[blockSize];
    this.mark = new int[data.classes];
    this.waves = new ParallelWaves(options.threads(), data.classes);
    this.steps = new BatchStep[options.threads()];
    for (int t = 0; t < steps.length; t++) {
      steps[t] = new BatchStep(n, maxRows);
    }
    this.position = batches;
  }

  /**
   * β_k = 1/P(k ∈ L_j ∪ C) for j uniform: (1/J)(Σ_j |C_j|/(K − |L_j|) + Σ_{j: k∈L_j} (1 − |C_j|/(K
   * − |L_j|))).
   */
  private double[] batchClassWeights(int m) {
    double shared = 0;
    double[] own = new double[data.classes];
    for (int j = 0; j < batches; j++) {
      int rest = data.classes - batch[j].labels().length;
      double drawn = rest == 0 ? 0 : Math.min(m, rest) / (double) rest;
      shared += drawn;
      for (int k : batch[j].labels()) {
        own[k] += 1 - drawn;
      }
    }
    double[] weights = new double[data.classes];
    for (int k = 0; k < weights.length; k++) {
      weights[k] = batches / (shared + own[k]);
    }
    return weights;
  }

  @Override
  public int iterationsPerEpoch() {
    return (batches + blockSize - 1) / blockSize;
  }

  /** Divides W's rate η, and with it the joint step's c = ηs, but not u_i's own rate η_u. */
  @Override
  public void scaleStepSize(double factor) {
    stepScale *= factor;
    rate *= factor;
  }

  /** The current u_i. */
  double[] u() {
    return u;
  }

  /** Mean Newton iterations per mini-batch step so far. */
  double meanNewtonIterations() {
    return newtonIterations.get() / (double) Math.max(1, solves.get());
  }

  /**
   * Runs a block of mini-batches and returns its estimate of Σ_n log p(y_n | x_n): N times the mean
   * over the block's datapoints of 1 − u_i − e^{−u_i} d_i at the values before the step.
   */
  @Override
  public double step() {
    iteration++;
    if (position == batches) {
      newEpoch();
    }
    blockLength = Math.min(blockSize, batches - position);
    SplittableRandom random =
        new SplittableRandom(options.seed() * 0xD1B54A32D192ED03L + iteration);
    int cursor = 0;
    int points = 0;
    for (int item = 0; item < blockLength; item++) {
      int j = batchOrder[position + item];
      itemBatch[item] = j;
      itemRowStart[item] = cursor;
      for (int k : batch[j].labels()) {
        itemRows[cursor++] = k;
      }
      cursor = drawClasses(j, cursor, random);
      itemClasses[item] = cursor - itemRowStart[item] - batch[j].labels().length;
      points += batchStart[j + 1] - batchStart[j];
    }
    itemRowStart[blockLength] = cursor;
    blockStart = position;
    position += blockLength;
    double work =
        (double) options.batchPoints()
            * (options.batchPoints() + options.batchClasses())
            * data.rowCost;
    waves.run(blockLength, itemRows, itemRowStart, work, this::runSlice);
    double loss = 0;
    for (int item = 0; item < blockLength; item++) {
      loss += itemLoss[item];
    }
    if (position == batches) {
      if (average != null) {
        average.endEpoch(iterate, rowScale, batches, model);
      }
      synchroniseModel();
    }
    return -data.rows * loss / points;
  }

  /** Writes min(m, K − |L_j|) classes outside L_j at itemRows[cursor..]; returns the new cursor. */
  private int drawClasses(int j, int cursor, SplittableRandom random) {
    if (++markStamp == Integer.MAX_VALUE) {
      Arrays.fill(mark, 0);
      markStamp = 1;
    }
    for (int k : batch[j].labels()) {
      mark[k] = markStamp;
    }
    int rest = data.classes - batch[j].labels().length;
    if (rest <= options.batchClasses()) {
      for (int k = 0; k < data.classes; k++) {
        if (mark[k] != markStamp) {
          itemRows[cursor++] = k;
        }
      }
      return cursor;
    }
    for (int drawn = 0; drawn < options.batchClasses(); ) {
      int k = random.nextInt(data.classes);
      if (mark[k] != markStamp) {
        mark[k] = markStamp;
        itemRows[cursor++] = k;
        drawn++;
      }
    }
    return cursor;
  }

  private void newEpoch() {
    epoch++;
    rate = stepScale * options.rate(epoch) * rateScale;
    uRate = options.uRate(epoch);
    SplittableRandom random = new SplittableRandom(options.seed() * 0x9E3779B97F4A7C15L + epoch);
    for (int i = 0; i < batches; i++) {
      int j = random.nextInt(i + 1);
      batchOrder[i] = batchOrder[j];
      batchOrder[j] = i;
    }
    position = 0;
  }

  /**
   * Brings every row of the iterate up to date: w̃_k = g_k r_k (at an epoch's end, after {@link
   * IterateAverage#endEpoch}, which leaves nothing to rebase).
   */
  private void synchroniseModel() {
    for (int k = 0; k < data.classes; k++) {
      if (rowScale[k] != 1) {
        data.scaleRow(kernels.vectorOps(), iterate, k, rowScale[k]);
        rowScale[k] = 1;
      }
    }
  }

  private void runSlice(int thread, int[] order, int from, int to) {
    BatchStep step = steps[thread];
    for (int s = from; s < to; s++) {
      int item = order[s];
      itemLoss[item] = step.step(item);
    }
  }

  /**
   * One thread's mini-batch step: the scores of the batch's points against its rows, the problem Φ
   * they define, its Newton solve ({@link ImplicitStepNewton}), and the step applied to u and W.
   */
  private final class BatchStep {
    private final ImplicitStepNewton newton;
    private final double[] scores;

    /** Per point and row slot, the shrunk offsets of z_ik at A = 0; per point, log c + c − ũ_i. */
    private final double[] base;

    private final double[] zetaOffset;
    private final double[] logWeight;
    private final double[] terms;
    private final double[] lambda;

    /** 2(1 + λ_t), the ridge part of ∇²Φ per row slot. */
    private final double[] ridge;

    private final float[] coef;
    private final float[] lagCoef;

    /** moves[t·|S_j| + i] = (Tᵀ a_t)_i, the weight of x̃_i in the move of row slot t. */
    private final double[] moves;

    /** Per point, the argument of the u-alone step's Wright omega, then its value. */
    private final double[] uAlone;

    /** The block item of the last solve. */
    private int lastItem = -1;

    BatchStep(int maxPoints, int maxRows) {
      newton =
          new ImplicitStepNewton(
              maxPoints, maxRows, options.innerTolerance(), kernels.specialFunctions());
      scores = new double[maxPoints * maxRows];
      base = new double[maxPoints * maxRows];
      zetaOffset = new double[maxPoints];
      logWeight = new double[maxRows];
      terms = new double[maxRows];
      lambda = new double[maxRows];
      ridge = new double[maxRows];
      coef = new float[maxRows];
      lagCoef = new float[maxRows];
      moves = new double[maxRows * maxPoints];
      uAlone = new double[maxPoints];
    }

    /**
     * Solves the implicit step of one block item, applies it, and returns Σ_i of the pre-step loss
     * estimate.
     */
    double step(int item) {
      int j = itemBatch[item];
      int from = batchStart[j];
      int size = batchStart[j + 1] - from;
      int rowsFrom = itemRowStart[item];
      int q = itemRowStart[item + 1] - rowsFrom;
      int labelled = batch[j].labels().length;
      int r = batch[j].rank();
      int[] slot = batch[j].slot();
      double c = rate * batches / data.rows;
      double logC = Math.log(c);
      double logRho =
          itemClasses[item] == 0
              ? 0
              : Math.log((data.classes - labelled) / (double) itemClasses[item]);
      for (int t = 0; t < q; t++) {
        int k = itemRows[rowsFrom + t];
        lambda[t] = rate * options.ridge() * beta[k];
        ridge[t] = 2 * (1 + lambda[t]);
        logWeight[t] = t < labelled ? 0 : logRho;
      }
      double lossSum = 0;
      for (int point = 0; point < size; point++) {
        int i = batchPoints[from + point];
        data.scores(kernels.vectorOps(), iterate, i, itemRows, rowsFrom, q, scores, point * q);
        int ty = slot[point];
        double uOld = u[i];
        zetaOffset[point] = logC + c - uOld;
        for (int t = 0; t < q; t++) {
          scores[point * q + t] *= rowScale[itemRows[rowsFrom + t]];
        }
        // Pre-step loss estimate u + e^{−u} d − 1 (log d by log-sum-exp in line: a kernel call
        // costs more than its q terms), and the shrunk offsets of z_ik at A = 0.
        double yScore = scores[point * q + ty];
        double max = 0;
        for (int t = 0; t < q; t++) {
          if (t != ty) {
            terms[t] = scores[point * q + t] - yScore + logWeight[t];
            max = Math.max(max, terms[t]);
          }
        }
        double sum = Math.exp(-max);
        for (int t = 0; t < q; t++) {
          if (t != ty) {
            sum += Math.exp(terms[t] - max);
          }
        }
        lossSum += uOld + Math.expm1(max + Math.log(sum) - uOld);
        double yShrunk = yScore / (1 + lambda[ty]);
        for (int t = 0; t < q; t++) {
          base[point * q + t] = scores[point * q + t] / (1 + lambda[t]) - yShrunk + logWeight[t];
        }
      }
      newtonIterations.addAndGet(
          newton.solve(batch[j].b(), slot, base, ridge, zetaOffset, size, q, r));
      solves.incrementAndGet();
      lastItem = item;
      apply(j, from, size, rowsFrom, q, r, c, blockStart + item + 1);
      return lossSum;
    }

    /**
     * u_i ← u_i − c' + W0(c' d_i e^{c' − u_i}) with c' = η_u − c, the implicit step in u_i alone
     * (see the class comment); log(c' d_i e^{c' − u_i}) = log c' + log ω_i − log c + c'.
     */
    private void uAloneStep(int from, int size, double c, double[] omega) {
      double rest = uRate - c;
      double shift = Math.log(rest) - Math.log(c) + rest;
      for (int point = 0; point < size; point++) {
        uAlone[point] = shift + Math.log(omega[point]);
      }
      kernels
          .specialFunctions()
          .apply(ElementwiseFunction.WRIGHT_OMEGA, size, uAlone, 0, uAlone, 0);
      for (int point = 0; point < size; point++) {
        u[batchPoints[from + point]] += uAlone[point] - rest;
      }
    }

    /**
     * u_i = ũ_i − c + ω_i; w̃_k = γ_k w̃_k + Σ_i (Tᵀ a_k)_i x̃_i, through g_k and r_k, as the
     * epoch's update {@code tick}.
     */
    private void apply(int j, int from, int size, int rowsFrom, int q, int r, double c, long tick) {
      double[] omega = newton.omega();
      double[] a = newton.solution();
      for (int point = 0; point < size; point++) {
        int i = batchPoints[from + point];
        u[i] = u[i] - c + omega[point];
      }
      if (uRate - c > RATE_ROUNDING * c) {
        uAloneStep(from, size, c, omega);
      }
      for (int t = 0; t < q; t++) {
        int k = itemRows[rowsFrom + t];
        double shrunk = rowScale[k] / (1 + lambda[t]);
        if (average != null) {
          average.rescaled(k, tick, rowScale[k], shrunk);
        }
        rowScale[k] = shrunk;
        if (rowScale[k] < RESCALE_BELOW) {
          if (average != null) {
            average.rebased(kernels.vectorOps(), iterate, k, rowScale[k], tick);
          }
          data.scaleRow(kernels.vectorOps(), iterate, k, rowScale[k]);
          rowScale[k] = 1;
        }
      }
      double[] tt = batch[j].t();
      for (int t = 0; t < q; t++) {
        for (int point = 0; point < size; point++) {
          double sum = 0;
          for (int l = 0; l < r; l++) {
            sum += tt[l * size + point] * a[l * q + t];
          }
          moves[t * size + point] = sum;
        }
      }
      for (int point = 0; point < size; point++) {
        for (int t = 0; t < q; t++) {
          coef[t] = (float) (moves[t * size + point] / rowScale[itemRows[rowsFrom + t]]);
        }
        if (average != null) {
          average.moved(
              kernels.vectorOps(),
              batchPoints[from + point],
              itemRows,
              rowsFrom,
              q,
              coef,
              0,
              tick,
              rowScale,
              lagCoef);
        }
        data.move(
            kernels.vectorOps(),
            iterate,
            batchPoints[from + point],
            itemRows,
            rowsFrom,
            q,
            coef,
            0);
      }
    }
  }

  /**
   * Thread 0's last mini-batch step: its datapoints, its rows (L_j, then C), how many are sampled,
   * β_k of each row, ω_i = u_i − ũ_i + c, and moves[t·|S_j| + i], the weight of x̃_i in the move of
   * row t (before its scale g_k).
   */
  /** A copy of the current iterate, every row brought up to date (w̃_k = g_k r_k). */
  LinearModel iterate() {
    LinearModel copy = IterateAverage.iterateOf(iterate);
    for (int k = 0; k < data.classes; k++) {
      data.scaleRow(kernels.vectorOps(), copy, k, rowScale[k]);
    }
    return copy;
  }

  record Solution(
      int[] points, int[] rows, int sampled, double[] beta, double[] omega, double[] moves) {}

  Solution lastSolution() {
    BatchStep step = steps[0];
    int item = step.lastItem;
    if (item < 0) {
      throw new IllegalStateException("no mini-batch solved yet");
    }
    int j = itemBatch[item];
    int size = batchStart[j + 1] - batchStart[j];
    int[] rows = Arrays.copyOfRange(itemRows, itemRowStart[item], itemRowStart[item + 1]);
    double[] rowBeta = new double[rows.length];
    for (int t = 0; t < rows.length; t++) {
      rowBeta[t] = beta[rows[t]];
    }
    return new Solution(
        Arrays.copyOfRange(batchPoints, batchStart[j], batchStart[j + 1]),
        rows,
        itemClasses[item],
        rowBeta,
        Arrays.copyOf(step.newton.omega(), size),
        Arrays.copyOf(step.moves, rows.length * size));
  }

  /** Writes the average to the caller's model, a partial last epoch included. */
  @Override
  public void close() {
    if (average != null && position < batches) {
      average.endEpoch(iterate, rowScale, position, model);
    }
    synchroniseModel();
    waves.close();
  }
}
