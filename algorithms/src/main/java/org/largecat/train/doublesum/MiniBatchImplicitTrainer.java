package org.largecat.train.doublesum;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.largecat.data.Dataset;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
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
 * <p><b>Solver.</b> Newton's method with a backtracking (Armijo) line search on the (|L_j| +
 * |C|)·rank unknowns, stopped when half the squared Newton decrement, the predicted gap to the
 * minimum, is below {@code innerTolerance}·max(1, Φ) (known before the direction from an upper
 * bound on the decrement); that last Newton step is still taken, its direction just accurate enough
 * to leave a gap below innerTolerance²·max(1, Φ), and ω_i after it come from a Taylor expansion
 * rather than another evaluation of Φ. The Newton system is solved inexactly, to a relative
 * residual that shrinks with the gradient, by conjugate gradients on products with the Hessian
 * above, each one projection of the direction onto the b_i and one back, O(|S_j| q rank); the
 * Hessian itself, (q·rank)² entries, and its O((q·rank)³) factorisation are never formed. The
 * problem is the paper's small strongly convex one: near the identity ×2 for small η (ω_i ≈ ηs), so
 * a few iterations, preconditioned by the diagonal, do. Every quantity is formed in log space (log
 * d_i by log-sum-exp, ω_i = W0(e^{ζ_i}) by the Wright omega kernel), so no point overflows however
 * large z − u is; that is the purpose of the paper's safe starting point (App. F.3.5, the linear
 * program 22), and here A = 0, the old weights after the ridge shrink, is already safe: Φ(0) is
 * finite and its gradient is linear, not exponential, in z − u.
 *
 * <p><b>Basis</b> (App. F.3.4): computed once per mini-batch by Gram–Schmidt, twice over, on the
 * Gram matrix of the x̃_i (a QR factorisation that never forms V): V = X̃ Tᵀ and b_i = (T G)_{·i},
 * so a move V a_k is the combination Σ_i (Tᵀ a_k)_i x̃_i of the batch's own rows, sparse when x is.
 * A point within 1e-10 (relative) of the span of the earlier ones adds no direction.
 *
 * <p><b>Sparse update</b> (App. F.3.3): each extended row is kept as w̃_k = g_k r_k; the shrink
 * multiplies g_k, and the move adds (1/g_k) Σ_i (Tᵀ a_k)_i x̃_i to r_k, so a step touches only the
 * batch's nonzero features. r_k is rescaled when g_k falls below 1/64, and the model's rows are
 * brought up to date (r_k ← g_k r_k) at the end of every epoch and on {@link #close}.
 */
final class MiniBatchImplicitTrainer implements Trainer {
  private static final double RANK_TOLERANCE = 1e-10;
  private static final double RESCALE_BELOW = 1.0 / 64;
  private static final int MAX_NEWTON_ITERATIONS = 100;

  /** The largest score move of the last Newton step after which ω_i is updated by Taylor. */
  private static final double TAYLOR_STEP = 0x1p-16;

  private final AugmentedData data;
  private final LinearModel model;
  private final DoubleSumOptions options;
  private final Kernels kernels;
  private final int batches;
  private final int[] batchStart;
  private final int[] batchPoints;
  private final int[][] batchLabels;
  private final int[][] labelSlot;
  private final double[][] basisT;
  private final double[][] basisB;
  private final int[] rank;
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
  private final Newton[] solvers;
  private final AtomicLong newtonIterations = new AtomicLong();
  private final AtomicLong solves = new AtomicLong();
  private int position;
  private long epoch = -1;
  private long iteration;
  private int blockLength;
  private double rate;

  /** The product of the step reductions of {@link #scaleStepSize}. */
  private double stepScale = 1;

  MiniBatchImplicitTrainer(
      Dataset dataset, LinearModel model, DoubleSumOptions options, Kernels kernels) {
    this.data = new AugmentedData(dataset, model);
    this.model = model;
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
    this.batchLabels = new int[batches][];
    this.labelSlot = new int[batches][];
    this.basisT = new double[batches][];
    this.basisB = new double[batches][];
    this.rank = new int[batches];
    float[] scratch = new float[Math.max(1, data.columns)];
    for (int j = 0; j < batches; j++) {
      batchStart[j + 1] = Math.min(data.rows, (j + 1) * n);
      describeBatch(j, scratch);
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
    this.solvers = new Newton[options.threads()];
    for (int t = 0; t < solvers.length; t++) {
      solvers[t] = new Newton(n, maxRows);
    }
    this.position = batches;
  }

  /**
   * L_j, each point's slot in it, and the basis of batch j (T and B = T G, rank × |S_j| row-major).
   */
  private void describeBatch(int j, float[] scratch) {
    int from = batchStart[j];
    int size = batchStart[j + 1] - from;
    int[] labels = new int[size];
    int[] slot = new int[size];
    int distinct = 0;
    for (int a = 0; a < size; a++) {
      int y = data.labels[batchPoints[from + a]];
      int s = 0;
      while (s < distinct && labels[s] != y) {
        s++;
      }
      if (s == distinct) {
        labels[distinct++] = y;
      }
      slot[a] = s;
    }
    batchLabels[j] = Arrays.copyOf(labels, distinct);
    labelSlot[j] = slot;
    // Gram matrix of the extended rows: x_a·x_b + 1, x_b spread into a dense scratch row.
    double[] gram = new double[size * size];
    int[] only = {0};
    float[] plus = {1};
    float[] minus = {-1};
    double[] dot = new double[1];
    for (int b = 0; b < size; b++) {
      int rowB = batchPoints[from + b];
      data.features.scatterAxpy(kernels.vectorOps(), scratch, 1, rowB, only, 0, 1, plus, 0);
      for (int a = 0; a <= b; a++) {
        data.features.gatherDot(
            kernels.vectorOps(), scratch, 1, batchPoints[from + a], only, 0, 1, dot, 0);
        gram[a * size + b] = dot[0] + 1;
        gram[b * size + a] = dot[0] + 1;
      }
      data.features.scatterAxpy(kernels.vectorOps(), scratch, 1, rowB, only, 0, 1, minus, 0);
    }
    // Gram–Schmidt in coefficient space: v_l = Σ_i T[l][i] x̃_i, <v, x̃_i> = (T G)_{·i}.
    double[] t = new double[size * size];
    double[] candidate = new double[size];
    double[] gc = new double[size];
    int r = 0;
    for (int a = 0; a < size; a++) {
      Arrays.fill(candidate, 0);
      candidate[a] = 1;
      for (int pass = 0; pass < 2; pass++) {
        multiply(gram, size, candidate, gc);
        for (int l = 0; l < r; l++) {
          double projection = 0;
          for (int i = 0; i < size; i++) {
            projection += t[l * size + i] * gc[i];
          }
          for (int i = 0; i < size; i++) {
            candidate[i] -= projection * t[l * size + i];
          }
        }
      }
      multiply(gram, size, candidate, gc);
      double norm2 = 0;
      for (int i = 0; i < size; i++) {
        norm2 += candidate[i] * gc[i];
      }
      if (norm2 > RANK_TOLERANCE * gram[a * size + a]) {
        double inverse = 1 / Math.sqrt(norm2);
        for (int i = 0; i < size; i++) {
          t[r * size + i] = candidate[i] * inverse;
        }
        r++;
      }
    }
    double[] b = new double[r * size];
    for (int l = 0; l < r; l++) {
      for (int i = 0; i < size; i++) {
        double sum = 0;
        for (int c = 0; c < size; c++) {
          sum += t[l * size + c] * gram[c * size + i];
        }
        b[l * size + i] = sum;
      }
    }
    rank[j] = r;
    basisT[j] = Arrays.copyOf(t, r * size);
    basisB[j] = b;
  }

  private static void multiply(double[] symmetric, int size, double[] x, double[] out) {
    for (int i = 0; i < size; i++) {
      double sum = 0;
      for (int c = 0; c < size; c++) {
        sum += symmetric[i * size + c] * x[c];
      }
      out[i] = sum;
    }
  }

  /**
   * β_k = 1/P(k ∈ L_j ∪ C) for j uniform: (1/J)(Σ_j |C_j|/(K − |L_j|) + Σ_{j: k∈L_j} (1 − |C_j|/(K
   * − |L_j|))).
   */
  private double[] batchClassWeights(int m) {
    double shared = 0;
    double[] own = new double[data.classes];
    for (int j = 0; j < batches; j++) {
      int rest = data.classes - batchLabels[j].length;
      double drawn = rest == 0 ? 0 : Math.min(m, rest) / (double) rest;
      shared += drawn;
      for (int k : batchLabels[j]) {
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
      for (int k : batchLabels[j]) {
        itemRows[cursor++] = k;
      }
      cursor = drawClasses(j, cursor, random);
      itemClasses[item] = cursor - itemRowStart[item] - batchLabels[j].length;
      points += batchStart[j + 1] - batchStart[j];
    }
    itemRowStart[blockLength] = cursor;
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
    for (int k : batchLabels[j]) {
      mark[k] = markStamp;
    }
    int rest = data.classes - batchLabels[j].length;
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
    rate = stepScale * options.rate(epoch);
    SplittableRandom random = new SplittableRandom(options.seed() * 0x9E3779B97F4A7C15L + epoch);
    for (int i = 0; i < batches; i++) {
      int j = random.nextInt(i + 1);
      batchOrder[i] = batchOrder[j];
      batchOrder[j] = i;
    }
    position = 0;
  }

  /** Brings every model row up to date: w̃_k = g_k r_k. */
  private void synchroniseModel() {
    for (int k = 0; k < data.classes; k++) {
      if (rowScale[k] != 1) {
        data.scaleRow(kernels.vectorOps(), model, k, rowScale[k]);
        rowScale[k] = 1;
      }
    }
  }

  private void runSlice(int thread, int[] order, int from, int to) {
    Newton solver = solvers[thread];
    for (int s = from; s < to; s++) {
      int item = order[s];
      itemLoss[item] = solver.step(item);
    }
  }

  /**
   * One thread's workspace and the Newton solve of Φ for one mini-batch. Every quantity of the
   * solve lives in the scores S = (b_i · a_t) (|S_j| × q), formed once per Newton direction: a
   * trial point of the line search is S + ℓ·S_d, and the Hessian is never formed, its products (one
   * projection onto the b_i and one back) feed conjugate gradients. Unknowns are stored by basis
   * coordinate, a_t's l-th at [l·q + t], as scores are by point, [i·q + t], so every inner loop of
   * a product runs over the q row slots with independent sums instead of a chain of r.
   */
  private final class Newton {
    private final double[] scores;
    private final double[] trialScores;
    private final double[] directionScores;
    private final double[] base;
    private final double[] logWeight;
    private final double[] terms;
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
    private final double[] lambda;

    /** 2(1 + λ_t), the ridge part of ∇²Φ per row slot. */
    private final double[] ridge;

    private final float[] coef;

    /** moves[t·|S_j| + i] = (Tᵀ a_t)_i, the weight of x̃_i in the move of row slot t. */
    private final double[] moves;

    /** The block item of the last solve. */
    private int lastItem = -1;

    Newton(int maxPoints, int maxRows) {
      int unknowns = maxRows * maxPoints;
      scores = new double[maxPoints * maxRows];
      trialScores = new double[maxPoints * maxRows];
      directionScores = new double[maxPoints * maxRows];
      base = new double[maxPoints * maxRows];
      logWeight = new double[maxRows];
      terms = new double[maxRows];
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
      lambda = new double[maxRows];
      ridge = new double[maxRows];
      coef = new float[maxRows];
      moves = new double[maxRows * maxPoints];
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
      int labelled = batchLabels[j].length;
      int r = rank[j];
      int[] slot = labelSlot[j];
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
        data.scores(kernels.vectorOps(), model, i, itemRows, rowsFrom, q, scores, point * q);
        int ty = slot[point];
        double uOld = u[i];
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
      solve(j, size, q, r, logC, c);
      lastItem = item;
      apply(j, from, size, rowsFrom, q, r, c);
      return lossSum;
    }

    /** Newton's method with an Armijo line search on Φ from A = 0; leaves A in a, ω_i in omega. */
    private void solve(int j, int size, int q, int r, double logC, double c) {
      int unknowns = q * r;
      Arrays.fill(a, 0, unknowns, 0);
      double[] now = scores;
      double[] trial = trialScores;
      Arrays.fill(now, 0, size * q, 0);
      double normA = 0;
      double phi = objective(now, normA, j, size, q, logC, c, true);
      int iterations = 0;
      boolean omegaKnown = false;
      while (iterations < MAX_NEWTON_ITERATIONS) {
        iterations++;
        double bound = gradientAndDiagonal(j, size, q, r);
        // gᵀ(∇²Φ)⁻¹g ≤ bound, as ∇²Φ ⪰ 2 diag(1 + λ) ⊗ I: once bound/2 is within
        // tolerance·scale (scale = max(1, Φ)) this is the last step, and a direction with relative
        // residual ρ leaves a gap of about ρ²·bound/2, so ρ = tolerance·√(2·scale/bound)
        // (√tolerance when the gap is at the tolerance, more the further below it is) leaves at
        // most tolerance²·scale; before that, a residual of min(1/2, √(bound/2·scale)) keeps
        // Newton superlinear (inexact Newton, Nocedal & Wright Thm. 7.2) for fewer Hessian
        // products.
        double scale = Math.max(1, phi);
        double tolerance = options.innerTolerance();
        boolean last = bound / 2 <= tolerance * scale;
        double forcing =
            Math.min(
                0.5,
                last ? tolerance * Math.sqrt(2 * scale / bound) : Math.sqrt(bound / (2 * scale)));
        double slope = newtonDirection(j, size, q, r, size * q, forcing);
        if (last) {
          // Within tolerance in Φ; the full step left (quadratically convergent here) squares the
          // error in A.
          for (int p = 0; p < unknowns; p++) {
            a[p] += direction[p];
          }
          for (int p = 0; p < size * q; p++) {
            now[p] += directionScores[p];
          }
          omegaKnown = stepOmega(j, size, q);
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
          next = objective(trial, trialNorm, j, size, q, logC, c, true);
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
        objective(now, 0, j, size, q, logC, c, false); // ω_i at the solution
      }
      newtonIterations.addAndGet(iterations);
      solves.incrementAndGet();
    }

    /**
     * Φ at the point whose scores are s and whose Σ_k (1 + λ_k)‖a_k‖² is norm; leaves ζ_i, ω_i and,
     * if {@code withWeights} (the gradient and Hessian use them, ω_i alone does not), per point and
     * row slot, e_i: the softmax weights π_ik of the terms of d_i at t ≠ y_i and −Σ_k π_ik at y_i.
     */
    private double objective(
        double[] s,
        double norm,
        int j,
        int size,
        int q,
        double logC,
        double c,
        boolean withWeights) {
      int[] slot = labelSlot[j];
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
        zeta[point] = logC + c - u[batchPoints[batchStart[j] + point]] + max + Math.log(sum);
      }
      kernels.specialFunctions().apply(ElementwiseFunction.WRIGHT_OMEGA, size, zeta, 0, omega, 0);
      double phi = norm;
      for (int point = 0; point < size; point++) {
        phi += (1 + omega[point]) * (1 + omega[point]);
      }
      return phi;
    }

    /**
     * ω_i after the last Newton step, whose scores are in directionScores, from the weights and ω_i
     * before it by Taylor expansions to second order: ζ_i moves by δ_i = e_i·Δ_i + (Σ_t π_it Δ_it²
     * − (e_i·Δ_i)²)/2 with Δ_it = ds_it − ds_iy_i, and ω by (ω/(1 + ω)) δ + (ω/(1 + ω)³) δ²/2
     * (∂ω/∂ζ = ω/(1 + ω)). Both remainders are cubic in max |Δ_it|, below 1e-14 of ω when it is at
     * most {@value #TAYLOR_STEP}, far below the Wright omega kernel's own 1e-13; returns false and
     * leaves ω as it was when a step is larger.
     */
    private boolean stepOmega(int j, int size, int q) {
      int[] slot = labelSlot[j];
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
    private double gradientAndDiagonal(int j, int size, int q, int r) {
      double[] b = basisB[j];
      int[] slot = labelSlot[j];
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
     * The Newton direction −(∇²Φ)⁻¹∇Φ by conjugate gradients preconditioned by the diagonal, at
     * most 2·unknowns iterations (exact arithmetic needs unknowns), with its scores in
     * directionScores summed from those of the conjugate directions that the Hessian products
     * project anyway; returns its slope ∇Φ·direction.
     */
    private double newtonDirection(int j, int size, int q, int r, int cells, double forcing) {
      int unknowns = q * r;
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
        hessianTimes(j, size, q, r, conjugate, product);
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
    private void hessianTimes(int j, int size, int q, int r, double[] v, double[] out) {
      project(j, size, q, r, v, projected);
      int[] slot = labelSlot[j];
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
      double[] b = basisB[j];
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
    private void project(int j, int size, int q, int r, double[] v, double[] out) {
      double[] b = basisB[j];
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

    /** u_i = ũ_i − c + ω_i; w̃_k = γ_k w̃_k + Σ_i (Tᵀ a_k)_i x̃_i, through g_k and r_k. */
    private void apply(int j, int from, int size, int rowsFrom, int q, int r, double c) {
      for (int point = 0; point < size; point++) {
        int i = batchPoints[from + point];
        u[i] = u[i] - c + omega[point];
      }
      for (int t = 0; t < q; t++) {
        int k = itemRows[rowsFrom + t];
        rowScale[k] /= 1 + lambda[t];
        if (rowScale[k] < RESCALE_BELOW) {
          data.scaleRow(kernels.vectorOps(), model, k, rowScale[k]);
          rowScale[k] = 1;
        }
      }
      double[] tt = basisT[j];
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
        data.move(
            kernels.vectorOps(), model, batchPoints[from + point], itemRows, rowsFrom, q, coef, 0);
      }
    }
  }

  /**
   * Thread 0's last mini-batch step: its datapoints, its rows (L_j, then C), how many are sampled,
   * β_k of each row, ω_i = u_i − ũ_i + c, and moves[t·|S_j| + i], the weight of x̃_i in the move of
   * row t (before its scale g_k).
   */
  record Solution(
      int[] points, int[] rows, int sampled, double[] beta, double[] omega, double[] moves) {}

  Solution lastSolution() {
    Newton solver = solvers[0];
    int item = solver.lastItem;
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
        Arrays.copyOf(solver.omega, size),
        Arrays.copyOf(solver.moves, rows.length * size));
  }

  @Override
  public void close() {
    synchroniseModel();
    waves.close();
  }
}
