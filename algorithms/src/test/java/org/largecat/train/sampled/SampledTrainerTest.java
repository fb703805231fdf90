package org.largecat.train.sampled;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SparseFeatures;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.TrainingRun;

class SampledTrainerTest {
  private static final Kernels KERNELS = Kernels.of("scalar");
  private static final int CLASSES = 20;
  private static final int COLUMNS = 10;

  private static final SyntheticSet TRAIN =
      SyntheticData.linearSoftmax(20_000, COLUMNS, CLASSES, 0.5, 11);
  private static final SyntheticSet TEST =
      SyntheticData.linearSoftmax(5_000, COLUMNS, CLASSES, 0.5, 11);

  private static LinearModel train(Method method, int iterations, int threads, long seed) {
    return train(TRAIN.data(), method, Sampling.PER_EXAMPLE, iterations, threads, seed);
  }

  private static LinearModel train(
      Dataset data, Method method, Sampling sampling, int iterations, int threads, long seed) {
    SampledSpec options =
        SampledSpec.builder(method)
            .batch(200)
            .sampled(5)
            .threads(threads)
            .seed(seed)
            .sampling(sampling)
            .stepSize(new StepSizeSchedule.Adaptive(0.05, 0.9, 2000, 0.1))
            .build();
    LinearModel model = LinearModel.zeros(method.link(), CLASSES, COLUMNS);
    SampledTrainer.initialise(model, options);
    try (SampledTrainer trainer = new SampledTrainer(data, model, options, KERNELS)) {
      for (int t = 0; t < iterations; t++) {
        double bound = trainer.step();
        assertTrue(
            Double.isFinite(bound), method + ": bound " + bound + " at iteration " + (t + 1));
      }
    }
    return model;
  }

  @Test
  void arSoftmaxMatchesExactSoftmaxOnKnownTruth() {
    // The test set is drawn from the same model as the training set (same seed for W, fresh rows).
    double truth =
        Evaluation.evaluate(
                new LinearModel(
                    org.largecat.model.Link.SOFTMAX,
                    CLASSES,
                    COLUMNS,
                    TRAIN.weights(),
                    TRAIN.biases()),
                TEST.data(),
                KERNELS,
                5,
                1)
            .meanLogLikelihood();
    double exact =
        Evaluation.evaluate(train(Method.EXACT_SOFTMAX_SGD, 3000, 1, 1), TEST.data(), KERNELS, 5, 2)
            .meanLogLikelihood();
    double ar =
        Evaluation.evaluate(train(Method.AR_SOFTMAX, 3000, 2, 1), TEST.data(), KERNELS, 5, 2)
            .meanLogLikelihood();
    double ove =
        Evaluation.evaluate(train(Method.OVE, 3000, 2, 1), TEST.data(), KERNELS, 5, 2)
            .meanLogLikelihood();
    System.out.printf(
        "truth %.5f exact %.5f ar %.5f ove %.5f uniform %.5f%n",
        truth, exact, ar, ove, -Math.log(CLASSES));
    assertEquals(
        exact, ar, 0.01 * Math.abs(exact), "A&R softmax vs exact softmax test log-likelihood");
    assertEquals(truth, exact, 0.02 * Math.abs(truth), "exact softmax vs the generating model");
  }

  @Test
  void sharedSamplingConvergesLikePerExampleSampling() {
    Dataset sparse =
        new Dataset(
            toSparse((DenseFeatures) TRAIN.data().features()), TRAIN.data().labels(), CLASSES);
    for (Method method : new Method[] {Method.AR_SOFTMAX, Method.OVE}) {
      double perExample =
          Evaluation.evaluate(train(method, 3000, 2, 1), TEST.data(), KERNELS, 5, 2)
              .meanLogLikelihood();
      double shared =
          Evaluation.evaluate(
                  train(TRAIN.data(), method, Sampling.SHARED, 3000, 2, 1),
                  TEST.data(),
                  KERNELS,
                  5,
                  2)
              .meanLogLikelihood();
      // The CSR copy takes the generic per-example kernels with the same shared sets: the gemm path
      // must agree.
      double sharedSparse =
          Evaluation.evaluate(
                  train(sparse, method, Sampling.SHARED, 3000, 2, 1), TEST.data(), KERNELS, 5, 2)
              .meanLogLikelihood();
      System.out.printf(
          "%s: per-example %.5f shared %.5f shared-sparse %.5f%n",
          method, perExample, shared, sharedSparse);
      assertEquals(
          perExample, shared, 0.01 * Math.abs(perExample), method + " shared vs per-example");
      assertEquals(
          shared,
          sharedSparse,
          1e-3 * Math.abs(shared),
          method + " shared dense (gemm) vs shared sparse");
    }
  }

  private static SparseFeatures toSparse(DenseFeatures dense) {
    int[] indptr = new int[dense.rows() + 1];
    int[] indices = new int[dense.values().length];
    for (int n = 0; n < dense.rows(); n++) {
      indptr[n + 1] = (n + 1) * dense.columns();
      for (int j = 0; j < dense.columns(); j++) {
        indices[n * dense.columns() + j] = j;
      }
    }
    return new SparseFeatures(dense.rows(), dense.columns(), indptr, indices, dense.values());
  }

  @Test
  void frequencySampledArSoftmaxReachesTheSameOptimum() {
    SampledSpec options =
        SampledSpec.builder(Method.AR_SOFTMAX)
            .batch(200)
            .sampled(5)
            .threads(2)
            .samplingPower(0.75)
            .stepSize(new StepSizeSchedule.Adaptive(0.05, 0.9, 2000, 0.1))
            .build();
    LinearModel model = LinearModel.zeros(Method.AR_SOFTMAX.link(), CLASSES, COLUMNS);
    SampledTrainer.initialise(model, options);
    try (SampledTrainer trainer = new SampledTrainer(TRAIN.data(), model, options, KERNELS)) {
      for (int t = 0; t < 3000; t++) {
        trainer.step();
      }
    }
    double exact =
        Evaluation.evaluate(train(Method.EXACT_SOFTMAX_SGD, 3000, 1, 1), TEST.data(), KERNELS, 5, 2)
            .meanLogLikelihood();
    double frequency = Evaluation.evaluate(model, TEST.data(), KERNELS, 5, 2).meanLogLikelihood();
    assertEquals(
        exact, frequency, 0.01 * Math.abs(exact), "frequency-sampled A&R vs exact softmax");
  }

  @Test
  void probitAndLogisticTrainWithoutNanAndBeatUniform() {
    for (Method method : new Method[] {Method.AR_PROBIT, Method.AR_LOGISTIC}) {
      LinearModel model = train(method, 3000, 2, 1);
      for (float w : model.weights()) {
        assertTrue(Float.isFinite(w), method + " weight " + w);
      }
      Evaluation.Result result = Evaluation.evaluate(model, TEST.data(), KERNELS, 5, 2);
      System.out.printf(
          "%s: test log-likelihood %.5f, accuracy %.4f%n",
          method, result.meanLogLikelihood(), result.accuracy());
      assertTrue(
          result.meanLogLikelihood() < 0 && result.meanLogLikelihood() > -Math.log(CLASSES) + 0.5,
          method
              + ": test log-likelihood "
              + result.meanLogLikelihood()
              + " vs uniform "
              + -Math.log(CLASSES));
      assertTrue(
          result.accuracy() > 4.0 / CLASSES,
          method + ": accuracy " + result.accuracy() + " vs uniform " + 1.0 / CLASSES);
    }
  }

  @Test
  void boundsLieBelowTheExactLogLikelihood() {
    for (Method method : new Method[] {Method.AR_SOFTMAX, Method.OVE}) {
      SampledSpec options =
          SampledSpec.builder(method)
              .batch(200)
              .sampled(5)
              .threads(2)
              .stepSize(new StepSizeSchedule.Adaptive(0.05, 0.9, 2000, 0.1))
              .build();
      LinearModel model = LinearModel.zeros(method.link(), CLASSES, COLUMNS);
      SampledTrainer.initialise(model, options);
      double bound;
      try (SampledTrainer trainer = new SampledTrainer(TRAIN.data(), model, options, KERNELS)) {
        TrainingRun.run(trainer, 2000, 1e9, (t, total, b, seconds) -> {});
        bound =
            TrainingRun.run(
                    trainer, trainer.iterationsPerEpoch(), 1e9, (t, total, b, seconds) -> {})
                .lastEpochBound();
      }
      double exact =
          TRAIN.data().rows()
              * Evaluation.evaluate(model, TRAIN.data(), KERNELS, 1, 2).meanLogLikelihood();
      System.out.printf("%s: bound %.1f, exact log-likelihood %.1f%n", method, bound, exact);
      // The epoch's estimate has Monte-Carlo noise of well under 1% here; A&R's bound is tight,
      // OVE's loose.
      assertTrue(
          bound < exact + 0.002 * Math.abs(exact), method + ": bound " + bound + " above " + exact);
    }
  }

  @Test
  void gaussianPriorShrinksTheWeights() {
    double[] norms = new double[2];
    double[] variances = {0, 1e-6};
    for (int i = 0; i < 2; i++) {
      SampledSpec options =
          SampledSpec.builder(Method.OVE)
              .batch(200)
              .sampled(5)
              .threads(1)
              .priorVariance(variances[i])
              .build();
      LinearModel model = LinearModel.zeros(Method.OVE.link(), CLASSES, COLUMNS);
      SampledTrainer.initialise(model, options);
      try (SampledTrainer trainer = new SampledTrainer(TRAIN.data(), model, options, KERNELS)) {
        for (int t = 0; t < 1000; t++) {
          trainer.step();
        }
      }
      for (float w : model.weights()) {
        norms[i] += w * w;
      }
    }
    // The data pull a weight with a whole-data gradient of order N·0.1 = 2000, the prior with w/σ²
    // = 10⁶·w:
    // the MAP weights are of order 0.002, against ML weights of the generating scale 0.5.
    assertTrue(
        norms[1] < 0.01 * norms[0], "prior " + norms[1] + " vs maximum likelihood " + norms[0]);
  }

  /**
   * Exact softmax on the whole set as one batch: two iterations of the adaptive step must be the
   * full gradient Σ_n ([k = y_n] − p_nk) x_n applied per coordinate, s = g² then 0.1 g² + 0.9 s,
   * whichever path phase two takes: whole dense rows (on one and two threads), whole sparse rows,
   * or the touched (row, feature) pairs of sparse rows with large D.
   */
  @Test
  void exactSoftmaxIterationsFollowTheFullGradient() {
    assertFullGradientSteps(denseProblem(7), 1);
    assertFullGradientSteps(denseProblem(14_000), 2);
    assertFullGradientSteps(
        new Dataset(toSparse((DenseFeatures) denseProblem(7).features()), LABELS, 6), 1);
    assertFullGradientSteps(sparseProblem(2_000), 1);
  }

  private static final int[] LABELS = {0, 3, 3, 5, 1, 0, 2, 4};

  private static Dataset denseProblem(int columns) {
    java.util.SplittableRandom random = new java.util.SplittableRandom(3);
    float[] x = new float[LABELS.length * columns];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) random.nextGaussian();
    }
    return new Dataset(new DenseFeatures(LABELS.length, columns, x), LABELS, 6);
  }

  /** Three stored values a row, at columns spread over D. */
  private static Dataset sparseProblem(int columns) {
    int[] indptr = new int[LABELS.length + 1];
    int[] indices = new int[3 * LABELS.length];
    float[] values = new float[indices.length];
    for (int n = 0; n < LABELS.length; n++) {
      indptr[n + 1] = 3 * (n + 1);
      for (int j = 0; j < 3; j++) {
        indices[3 * n + j] = (n * 7 + j * columns / 3) % columns;
        values[3 * n + j] = (n + 1) * (j - 1.2f);
      }
      java.util.Arrays.sort(indices, 3 * n, 3 * n + 3);
    }
    return new Dataset(
        new SparseFeatures(LABELS.length, columns, indptr, indices, values), LABELS, 6);
  }

  private static void assertFullGradientSteps(Dataset data, int threads) {
    int classes = data.classes();
    int columns = data.columns();
    StepSizeSchedule.Adaptive schedule = new StepSizeSchedule.Adaptive(0.5, 0.9, 2000, 0.1);
    SampledSpec options =
        SampledSpec.builder(Method.EXACT_SOFTMAX_SGD)
            .batch(LABELS.length)
            .sampled(classes)
            .threads(threads)
            .stepSize(schedule)
            .build();
    LinearModel model = LinearModel.zeros(Method.EXACT_SOFTMAX_SGD.link(), classes, columns);
    SampledTrainer.initialise(model, options);
    double[] w = new double[classes * columns];
    double[] b = model.biases().clone();
    for (int c = 0; c < w.length; c++) {
      w[c] = model.weights()[c];
    }
    // Dense x: the trainer's scores are float gemm sums of D products, each within D·2⁻²⁴·Σ_j |w_j
    // x_j| (Higham's γ_D), which moves each p by at most twice that relative to p, so each bias's
    // gradient by 2N times it and each step by the rate times that (the adaptive step's slope is
    // at most 1).
    double scoreError = 0;
    if (data.features() instanceof DenseFeatures) {
      for (int n = 0; n < LABELS.length; n++) {
        for (int k = 0; k < classes; k++) {
          double magnitude = Math.abs(b[k]);
          for (int j = 0; j < columns; j++) {
            magnitude += Math.abs(w[k * columns + j] * data.features().get(n, j));
          }
          scoreError = Math.max(scoreError, (columns + 1) * 0x1p-24 * magnitude);
        }
      }
    }
    double biasTolerance = 1e-7;
    double[] s = new double[w.length + classes];
    try (SampledTrainer trainer = new SampledTrainer(data, model, options, KERNELS)) {
      assertEquals(threads, trainer.threads(), "threads started");
      for (int t = 1; t <= 2; t++) {
        trainer.step();
        double[] g = new double[w.length + classes];
        for (int n = 0; n < LABELS.length; n++) {
          double[] p = new double[classes];
          double max = Double.NEGATIVE_INFINITY;
          for (int k = 0; k < classes; k++) {
            p[k] = b[k];
            for (int j = 0; j < columns; j++) {
              p[k] += w[k * columns + j] * data.features().get(n, j);
            }
            max = Math.max(max, p[k]);
          }
          double z = 0;
          for (int k = 0; k < classes; k++) {
            p[k] = Math.exp(p[k] - max);
            z += p[k];
          }
          for (int k = 0; k < classes; k++) {
            double coef = (k == LABELS[n] ? 1 : 0) - p[k] / z;
            for (int j = 0; j < columns; j++) {
              g[k * columns + j] += coef * data.features().get(n, j);
            }
            g[w.length + k] += coef;
          }
        }
        double rate = schedule.rate(t);
        biasTolerance += rate * 2 * LABELS.length * 2 * scoreError;
        for (int c = 0; c < g.length; c++) {
          if (g[c] == 0) {
            continue; // a coordinate with no gradient (sparse x) keeps its s until it has one
          }
          s[c] = t == 1 ? g[c] * g[c] : 0.1 * g[c] * g[c] + 0.9 * s[c];
          double step = rate * g[c] / (1 + Math.sqrt(s[c]));
          if (c < w.length) {
            w[c] += step;
          } else {
            b[c - w.length] += step;
          }
        }
      }
    }
    // The trainer's weights, gradients and coefficients are floats (relative error 6e-8 each).
    for (int c = 0; c < w.length; c++) {
      assertEquals(w[c], model.weights()[c], 1e-5, "D = " + columns + ", weight " + c);
    }
    assertArrayEquals(b, model.biases(), biasTolerance, "D = " + columns + ", biases");
  }

  /**
   * Per-example sampling sums every gradient in an order fixed by the batch, so one thread and two
   * give the same bits.
   */
  @Test
  void perExampleSamplingIsIndependentOfTheThreadCount() {
    Dataset data = SyntheticData.linearSoftmax(2_000, 100, CLASSES, 0.5, 5).data();
    LinearModel[] models = new LinearModel[2];
    for (int threads = 1; threads <= 2; threads++) {
      SampledSpec options =
          SampledSpec.builder(Method.AR_SOFTMAX)
              .batch(200)
              .sampled(CLASSES - 1)
              .threads(threads)
              .build();
      LinearModel model = LinearModel.zeros(Method.AR_SOFTMAX.link(), CLASSES, 100);
      SampledTrainer.initialise(model, options);
      try (SampledTrainer trainer = new SampledTrainer(data, model, options, KERNELS)) {
        assertEquals(threads, trainer.threads(), "threads started");
        for (int t = 0; t < 30; t++) {
          trainer.step();
        }
      }
      models[threads - 1] = model;
    }
    assertArrayEquals(models[0].weights(), models[1].weights());
    assertArrayEquals(models[0].biases(), models[1].biases());
  }

  /**
   * Shared mode, two threads, and an epoch's last batch of one example, so one thread's chunk is
   * empty: its gemm gradient must count as zero, as the CSR copy (no gemm) confirms.
   */
  @Test
  void sharedGemmPathHandlesAnEmptyThreadChunk() {
    Dataset dense = SyntheticData.linearSoftmax(401, 100, CLASSES, 0.5, 5).data();
    Dataset sparse =
        new Dataset(toSparse((DenseFeatures) dense.features()), dense.labels(), CLASSES);
    LinearModel[] models = new LinearModel[2];
    for (int m = 0; m < 2; m++) {
      SampledSpec options =
          SampledSpec.builder(Method.AR_SOFTMAX)
              .batch(200)
              .sampled(CLASSES - 1)
              .threads(2)
              .sampling(Sampling.SHARED)
              .build();
      models[m] = LinearModel.zeros(Method.AR_SOFTMAX.link(), CLASSES, 100);
      SampledTrainer.initialise(models[m], options);
      try (SampledTrainer trainer =
          new SampledTrainer(m == 0 ? dense : sparse, models[m], options, KERNELS)) {
        assertEquals(2, trainer.threads(), "threads started");
        for (int t = 0; t < 3; t++) {
          trainer.step();
        }
      }
    }
    assertArrayEquals(
        models[1].weights(), models[0].weights(), 1e-5f, "shared dense (gemm) vs shared sparse");
    assertArrayEquals(models[1].biases(), models[0].biases(), 1e-7, "biases (from float scores)");
  }

  @Test
  void sameSeedAndThreadsGiveTheSameWeights() {
    LinearModel a = train(Method.AR_SOFTMAX, 50, 2, 7);
    LinearModel b = train(Method.AR_SOFTMAX, 50, 2, 7);
    assertArrayEquals(a.weights(), b.weights());
    assertArrayEquals(a.biases(), b.biases());
  }
}
