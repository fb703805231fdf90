package org.largecat.train.doublesum;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAccumulator;
import org.largecat.data.Dataset;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.special.Logistic;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Method;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingDivergedException;

/**
 * The double-sum trainers that sample one datapoint i and one class k ≠ y_i per iteration
 * (unbiased-scalable-softmax, n = m = 1): vanilla SGD (Eqs. 6–7), U-max (Algorithm 1), Implicit SGD
 * (App. F.1) and U-max on Raman et al.'s double-sum (Eq. 8). Each keeps u_i in its own array,
 * initialised to log K (Algorithm 1, line 6; the weights start at 0).
 *
 * <p>With x̃ the datapoint extended by 1 and z = x̃·(w̃_k − w̃_y), the per-pair objective on the
 * mean scale (Eq. 6 without its factor N) is f_ik = u_i + e^{−u_i} + (K − 1) e^{z − u_i} +
 * (μ/2)(β_y‖w̃_y‖² + β_k‖w̃_k‖²), β_j = N(K − 1)/(n_j(K − 2) + N) the inverse probability that
 * class j is y_i or k (the text's Eq. 6 is garbled; this is its stated meaning, re-derived).
 *
 * <p>One {@link #step} runs a block of {@code blockSize} pairs, i from the epoch's permutation and
 * k uniform over the other classes, as if one after another ({@link ParallelWaves}); the learning
 * rate of W is η·decay^epoch (§4.1), that of u_i η·uDecay^epoch, by default η throughout ({@link
 * DoubleSumSpec#uEpochDecay} says why). SGD and U-max step u_i with its own rate; Implicit SGD
 * takes the joint step of App. F.1 at W's rate η_W and then, when u_i's rate η_u is larger, an
 * implicit step in u_i alone at the rate left, η_u − η_W, on the same pair at the new weights: the
 * minimiser over u of 2(η_u − η_W)(u + e^{−u} d) + (u − ũ)², d = 1 + (K − 1)e^{z − a}, which is u =
 * ũ − c + W0(c d e^{c − ũ}) with c = η_u − η_W (the u_i update of App. F.3 with one datapoint and
 * one class; one incremental proximal step per term, Bertsekas 2011).
 *
 * <p>The ridge: SGD and U-max take its gradient μβ_j w̃_j explicitly; Implicit SGD solves the
 * unregularised step of App. F.1 with the batched {@code isgd-update} kernel and then applies the
 * ridge's own proximal map w̃_j ← w̃_j/(1 + ημβ_j), the exact implicit step of the ridge term alone
 * (as App. F.3 does for the part of W outside the span of the x's).
 *
 * <p>With {@link DoubleSumSpec#averaged} the steps move a private copy of the weights, and the
 * caller's model receives their {@link IterateAverage} at the end of each epoch and on {@link
 * #close}; every change to a row (move, ridge scaling, projection) goes to the average as it goes
 * to the row.
 */
final class PairTrainer implements Trainer {
  /**
   * |z − u| beyond which e^{z − u} overflows a double (the public Python code's root bracket then
   * overflows).
   */
  static final double OVERFLOW_EXPONENT = 700;

  private final AugmentedData data;

  /** The caller's model: the iterate itself, or the average written at each epoch's end. */
  private final LinearModel model;

  /** The weights the updates move: the caller's model unless iterates are averaged. */
  private final LinearModel iterate;

  /** The average of the iterates, or null when the caller's model is the iterate. */
  private final IterateAverage average;

  private final DoubleSumSpec options;
  private final Kernels kernels;
  private final FeasibleSet bounds;
  private final double[] beta;
  private final double[] u;
  private final int[] permutation;
  private final int blockSize;
  private final int[] pairPoint;
  private final int[] pairRows;
  private final int[] pairRowStart;
  private final double[] pairLoss;
  private final ParallelWaves waves;
  private final Workspace[] workspaces;
  private final AtomicLong extremeSteps = new AtomicLong();
  private final DoubleAccumulator largestExponent = new DoubleAccumulator(Math::max, 0);
  private int position;
  private long epoch = -1;
  private long iteration;
  private int blockStart;
  private int blockLength;
  private double rate;
  private double uRate;

  /** W's rate per unit of {@link DoubleSumSpec#learningRate}: 1, or 1/mean ‖x̃_i‖². */
  private final double rateScale;

  /** The product of the step reductions of {@link #scaleStepSize}. */
  private double stepScale = 1;

  PairTrainer(Dataset dataset, LinearModel model, DoubleSumSpec options, Kernels kernels) {
    this.data = new AugmentedData(dataset, model);
    this.model = model;
    this.iterate = options.averaged() ? IterateAverage.iterateOf(model) : model;
    this.average = options.averaged() ? new IterateAverage(data) : null;
    this.options = options;
    this.kernels = kernels;
    this.bounds = FeasibleSet.of(data, options.ridge());
    this.beta = pairClassWeights(data);
    this.u = new double[data.rows];
    Arrays.fill(u, Math.log(data.classes));
    this.permutation = new int[data.rows];
    this.blockSize = Math.min(options.blockSize(), data.rows);
    this.pairPoint = new int[blockSize];
    this.pairRows = new int[2 * blockSize];
    this.pairRowStart = new int[blockSize + 1];
    for (int j = 0; j <= blockSize; j++) {
      pairRowStart[j] = 2 * j;
    }
    this.pairLoss = new double[blockSize];
    this.waves = new ParallelWaves(options.threads(), data.classes);
    this.workspaces = new Workspace[options.threads()];
    for (int t = 0; t < workspaces.length; t++) {
      workspaces[t] = new Workspace(blockSize);
    }
    this.position = data.rows;
    this.rateScale = options.normalisedRate() ? 1 / data.meanSquaredNorm : 1;
  }

  /**
   * β_j = 1/P(j ∈ {y_i, k}) for i uniform and k uniform over the K − 1 classes other than y_i (Eq.
   * 6).
   */
  static double[] pairClassWeights(AugmentedData data) {
    int[] counts = data.classCounts();
    double[] beta = new double[data.classes];
    double n = data.rows;
    double others = data.classes - 1;
    for (int j = 0; j < beta.length; j++) {
      beta[j] = n * others / (counts[j] * others + (n - counts[j]));
    }
    return beta;
  }

  @Override
  public int iterationsPerEpoch() {
    return (data.rows + blockSize - 1) / blockSize;
  }

  @Override
  public void scaleStepSize(double factor) {
    stepScale *= factor;
    rate *= factor;
    uRate *= factor;
  }

  /**
   * Steps so far whose |z − u| exceeded {@value #OVERFLOW_EXPONENT} (Implicit SGD solves them
   * anyway).
   */
  long extremeSteps() {
    return extremeSteps.get();
  }

  /** The largest |z − u| any Implicit SGD step has met. */
  double largestExponent() {
    return largestExponent.get();
  }

  /** The current u_i. */
  double[] u() {
    return u;
  }

  /**
   * Runs one block of pairs and returns the block's estimate of Σ_n log p(y_n | x_n): N times the
   * mean over the block of 1 − f_ik at the values before each step (a lower bound in expectation).
   */
  @Override
  public double step() {
    iteration++;
    if (position == data.rows) {
      newEpoch();
    }
    blockStart = position;
    blockLength = Math.min(blockSize, data.rows - position);
    SplittableRandom random =
        new SplittableRandom(options.seed() * 0xD1B54A32D192ED03L + iteration);
    for (int j = 0; j < blockLength; j++) {
      int i = permutation[position + j];
      int y = data.labels[i];
      int k = random.nextInt(data.classes - 1);
      pairPoint[j] = i;
      pairRows[2 * j] = y;
      pairRows[2 * j + 1] = k >= y ? k + 1 : k;
    }
    position += blockLength;
    waves.run(blockLength, pairRows, pairRowStart, 4 * data.rowCost, this::runSlice);
    double loss = 0;
    for (int j = 0; j < blockLength; j++) {
      loss += pairLoss[j];
    }
    if (average != null && position == data.rows) {
      average.endEpoch(iterate, null, position, model);
    }
    return -data.rows * loss / blockLength;
  }

  private void newEpoch() {
    epoch++;
    rate = stepScale * options.rate(epoch) * rateScale;
    uRate = stepScale * options.uRate(epoch);
    SplittableRandom random = new SplittableRandom(options.seed() * 0x9E3779B97F4A7C15L + epoch);
    for (int i = 0; i < permutation.length; i++) {
      int j = random.nextInt(i + 1);
      permutation[i] = permutation[j];
      permutation[j] = i;
    }
    position = 0;
  }

  /** Per-thread scratch for one slice of a wave. */
  private static final class Workspace {
    final double[] scores = new double[2];
    final float[] coef = new float[2];
    final float[] lagCoef = new float[2];
    final double[] z;
    final double[] uOld;
    final double[] xNorm2;
    final double[] uNew;
    final double[] a;
    final double[] omega;

    Workspace(int size) {
      z = new double[size];
      uOld = new double[size];
      xNorm2 = new double[size];
      uNew = new double[size];
      a = new double[size];
      omega = new double[size];
    }
  }

  /** Pairs order[from..to) of one wave, which touch disjoint rows. */
  private void runSlice(int thread, int[] order, int from, int to) {
    Workspace ws = workspaces[thread];
    int count = to - from;
    for (int s = 0; s < count; s++) {
      int j = order[from + s];
      int i = pairPoint[j];
      data.scores(kernels.vectorOps(), iterate, i, pairRows, 2 * j, 2, ws.scores, 0);
      ws.z[s] = ws.scores[1] - ws.scores[0];
      ws.uOld[s] = u[i];
      ws.xNorm2[s] = data.squaredNorm[i];
      pairLoss[j] =
          options.method() == Method.UMAX_RAMAN
              ? ramanLoss(ws.scores[0], ws.scores[1], u[i])
              : loss(ws.z[s], u[i]);
      if (!Double.isFinite(ws.z[s])) {
        throw diverged(j, "the score difference x·(w_k − w_y) is " + ws.z[s]);
      }
    }
    if (options.method() == Method.IMPLICIT_SGD) {
      kernels
          .implicitUpdates()
          .softmaxSingleClass(
              count, ws.z, 0, ws.uOld, 0, ws.xNorm2, 0, rate, 1, data.classes, ws.uNew, 0, ws.a, 0);
      if (uRate > rate) {
        uAloneStep(ws, count);
      }
    }
    for (int s = 0; s < count; s++) {
      int j = order[from + s];
      update(ws, s, j);
    }
  }

  /**
   * The implicit step in u_i alone at the rate u_i has beyond W's (see the class comment), for the
   * slice's pairs.
   */
  private void uAloneStep(Workspace ws, int count) {
    double c = uRate - rate;
    double logC = Math.log(c);
    double logOthers = Math.log(data.classes - 1);
    for (int s = 0; s < count; s++) {
      ws.omega[s] = logC + Logistic.softplus(logOthers + ws.z[s] - ws.a[s]) + c - ws.uNew[s];
    }
    kernels
        .specialFunctions()
        .apply(ElementwiseFunction.WRIGHT_OMEGA, count, ws.omega, 0, ws.omega, 0);
    for (int s = 0; s < count; s++) {
      ws.uNew[s] += ws.omega[s] - c;
    }
  }

  /** One pair's update of u_i and of the rows y (slot 0) and k (slot 1). */
  private void update(Workspace ws, int s, int j) {
    int i = pairPoint[j];
    int y = pairRows[2 * j];
    int k = pairRows[2 * j + 1];
    double z = ws.z[s];
    double uOld = ws.uOld[s];
    double others = data.classes - 1;
    double uNew;
    boolean implicit = false;
    switch (options.method()) {
      case IMPLICIT_SGD -> {
        double exponent = Math.abs(z - uOld);
        largestExponent.accumulate(exponent);
        if (exponent > OVERFLOW_EXPONENT) {
          extremeSteps.incrementAndGet();
        }
        uNew = ws.uNew[s];
        float move = (float) (ws.a[s] / (2 * ws.xNorm2[s]));
        ws.coef[0] = move;
        ws.coef[1] = -move;
        implicit = true;
      }
      case UMAX_RAMAN -> {
        // U-max on Eq. 8: f_ik = u − ψ_y + e^{ψ_y − u} + (K − 1) e^{ψ_k − u}; reset u to
        // log(e^{ψ_y} + e^{ψ_k}).
        double psiY = ws.scores[0];
        double psiK = psiY + z;
        double floor = Math.max(psiY, psiK) + Math.log1p(Math.exp(-Math.abs(z)));
        double uu = uOld < floor - options.threshold() ? floor : uOld;
        double ey = Math.exp(psiY - uu);
        double ek = others * Math.exp(psiK - uu);
        ws.coef[0] = (float) (-rate * (ey - 1));
        ws.coef[1] = (float) (-rate * ek);
        uNew = clamp(uu - uRate * (1 - ey - ek), bounds.ramanLower(), bounds.ramanUpper());
      }
      default -> {
        // Eq. 7 at u (U-max first raises u to log(1 + e^z) when it is δ below it, Algorithm 1 line
        // 13).
        double uu = uOld;
        if (options.method() == Method.UMAX) {
          double floor = Logistic.softplus(z);
          uu = uOld < floor - options.threshold() ? floor : uOld;
        }
        double e = others * Math.exp(z - uu);
        double move = rate * e;
        ws.coef[0] = (float) move;
        ws.coef[1] = (float) -move;
        uNew = uu - uRate * (1 - Math.exp(-uu) - e);
        if (options.method() == Method.UMAX) {
          uNew = clamp(uNew, 0, bounds.uUpper());
        }
        if (!(Math.abs(move) * Math.sqrt(ws.xNorm2[s]) < 1e30) || !Double.isFinite(uNew)) {
          throw diverged(
              j,
              "the gradient (K − 1)e^{z − u}·x has magnitude "
                  + Math.abs(move / rate) * Math.sqrt(ws.xNorm2[s])
                  + " (z − u = "
                  + (z - uu)
                  + ")");
        }
      }
    }
    u[i] = uNew;
    long tick = blockStart + j + 1;
    if (options.ridge() > 0 && !implicit) {
      scaleRow(y, 1 - rate * options.ridge() * beta[y], tick);
      scaleRow(k, 1 - rate * options.ridge() * beta[k], tick);
    }
    if (average != null) {
      average.moved(kernels.vectorOps(), i, pairRows, 2 * j, 2, ws.coef, 0, tick, null, ws.lagCoef);
    }
    data.move(kernels.vectorOps(), iterate, i, pairRows, 2 * j, 2, ws.coef, 0);
    if (options.ridge() > 0 && implicit) {
      scaleRow(y, 1 / (1 + rate * options.ridge() * beta[y]), tick);
      scaleRow(k, 1 / (1 + rate * options.ridge() * beta[k]), tick);
    }
    if (Double.isFinite(bounds.weightNorm())
        && (options.method() == Method.UMAX || options.method() == Method.UMAX_RAMAN)) {
      project(y, tick);
      project(k, tick);
    }
  }

  /** w̃_k ← factor·w̃_k during update {@code tick} of the epoch. */
  private void scaleRow(int k, double factor, long tick) {
    if (average != null) {
      average.scaled(kernels.vectorOps(), iterate, k, factor, tick);
    }
    data.scaleRow(kernels.vectorOps(), iterate, k, factor);
  }

  /** w̃_k ← w̃_k·min{1, B_W/‖w̃_k‖} (Algorithm 1, lines 21–22). */
  private void project(int k, long tick) {
    double norm = Math.sqrt(data.rowSquaredNorm(kernels.vectorOps(), iterate, k));
    if (norm > bounds.weightNorm()) {
      scaleRow(k, bounds.weightNorm() / norm, tick);
    }
  }

  /**
   * f_ik − 1 without the ridge: u + e^{−u} + (K − 1)e^{z − u} − 1, an upper bound in expectation on
   * −log p.
   */
  private double loss(double z, double uu) {
    return uu + Math.expm1(-uu) + (data.classes - 1) * Math.exp(z - uu);
  }

  /** The same for Eq. 8: u − ψ_y + e^{ψ_y − u} + (K − 1)e^{ψ_k − u} − 1. */
  private double ramanLoss(double psiY, double psiK, double uu) {
    return uu - psiY + Math.expm1(psiY - uu) + (data.classes - 1) * Math.exp(psiK - uu);
  }

  private static double clamp(double value, double lower, double upper) {
    return Math.max(lower, Math.min(upper, value));
  }

  private TrainingDivergedException diverged(int j, String what) {
    long pair = epoch * data.rows + blockStart + j + 1;
    return new TrainingDivergedException(
        String.format(
            "%s overflowed at iteration %d (epoch %d, datapoint %d, class %d) with learning rate %g (initial %g): %s;"
                + " the weights are left at their last finite values; use a smaller --learning-rate, or umax or isgd",
            options.method().label(),
            pair,
            epoch + 1,
            pairPoint[j],
            pairRows[2 * j + 1],
            rate,
            options.learningRate(),
            what));
  }

  /** Writes the average to the caller's model, a partial last epoch included. */
  @Override
  public void close() {
    if (average != null && position < data.rows) {
      average.endEpoch(iterate, null, position, model);
    }
    waves.close();
  }
}
