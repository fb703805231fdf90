package org.largecat.train.sampled;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.FactorizedSet;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.data.SyntheticData;
import org.largecat.eval.Evaluation;
import org.largecat.fit.Fit;
import org.largecat.fit.Fitter;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.Link;
import org.largecat.train.LogSoftmax;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;

class FactorizedTrainerTest {
  private static final Kernels KERNELS = Kernels.of("scalar");

  /** A small set, dense, with a quarter of its entries zero so the sparse copy differs. */
  private static Dataset smallSet(int rows, int columns, int classes, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    float[] x = new float[rows * columns];
    for (int i = 0; i < x.length; i++) {
      x[i] = random.nextInt(4) == 0 ? 0f : (float) random.nextGaussian();
    }
    int[] labels = new int[rows];
    for (int n = 0; n < rows; n++) {
      labels[n] = random.nextInt(classes);
    }
    return new Dataset(new DenseFeatures(rows, columns, x), labels, classes);
  }

  private static Dataset sparseCopy(Dataset dense) {
    DenseFeatures x = (DenseFeatures) dense.features();
    int[] indptr = new int[x.rows() + 1];
    int[] indices = new int[x.values().length];
    float[] values = new float[x.values().length];
    int at = 0;
    for (int n = 0; n < x.rows(); n++) {
      at += x.nonzeros(n, indices, values, at);
      indptr[n + 1] = at;
    }
    Features sparse =
        new SparseFeatures(
            x.rows(), x.columns(), indptr, Arrays.copyOf(indices, at), Arrays.copyOf(values, at));
    return new Dataset(sparse, dense.labels(), dense.classes());
  }

  /** The first {@code trainRows} rows of a generated set to train on, and the rest to test on. */
  static Dataset[] trainAndTest(FactorizedSet all, int trainRows) {
    Dataset data = all.data();
    return new Dataset[] {
      data.subset(IntStream.range(0, trainRows).toArray()),
      data.subset(IntStream.range(trainRows, data.rows()).toArray())
    };
  }

  /** The mean log-likelihood of the factorized softmax in double precision, from the definition. */
  private static double logLikelihood(
      Dataset data, int rank, double[] inputs, double[] outputs, double[] biases) {
    int classes = data.classes();
    int columns = data.columns();
    double sum = 0;
    for (int n = 0; n < data.rows(); n++) {
      double[] h = new double[rank];
      for (int j = 0; j < columns; j++) {
        double x = data.features().get(n, j);
        for (int c = 0; c < rank; c++) {
          h[c] += x * inputs[j * rank + c];
        }
      }
      double[] psi = new double[classes];
      for (int k = 0; k < classes; k++) {
        psi[k] = biases[k];
        for (int c = 0; c < rank; c++) {
          psi[k] += h[c] * outputs[k * rank + c];
        }
      }
      sum += LogSoftmax.of(psi, data.labels()[n]);
    }
    return sum / data.rows();
  }

  private static double[] widen(float[] values) {
    double[] wide = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      wide[i] = values[i];
    }
    return wide;
  }

  /**
   * One plain-SGD step of exact-softmax-sgd over the whole set at learning rate 1 moves every
   * parameter by the mean log-likelihood's gradient; central differences of the double-precision
   * log-likelihood give it independently.
   */
  @Test
  void oneExactStepIsTheGradientOfTheLogLikelihood() {
    Dataset dense = smallSet(30, 6, 5, 3);
    int rank = 3;
    for (Dataset data : new Dataset[] {dense, sparseCopy(dense)}) {
      SampledSpec options =
          SampledSpec.builder(Method.EXACT_SOFTMAX_SGD)
              .batch(data.rows())
              .sampled(4)
              .threads(1)
              .stepSize(new StepSizeSchedule.Sgd(1, 1))
              .build();
      FactorizedModel model = FactorizedTrainer.initialModel(data, options, rank);
      for (int k = 0; k < model.classes(); k++) {
        model.biases()[k] = 0.3 * k - 0.5;
      }
      double[] v = widen(model.inputs());
      double[] u = widen(model.outputs());
      double[] b = model.biases().clone();
      try (FactorizedTrainer trainer = new FactorizedTrainer(data, model, options, KERNELS)) {
        trainer.step();
      }
      double h = 1e-5;
      double[][] parameters = {v, u, b};
      double[][] after = {widen(model.inputs()), widen(model.outputs()), model.biases()};
      for (int p = 0; p < 3; p++) {
        for (int i = 0; i < parameters[p].length; i++) {
          double keep = parameters[p][i];
          parameters[p][i] = keep + h;
          double up = logLikelihood(data, rank, v, u, b);
          parameters[p][i] = keep - h;
          double down = logLikelihood(data, rank, v, u, b);
          parameters[p][i] = keep;
          double numeric = (up - down) / (2 * h);
          assertEquals(
              numeric,
              after[p][i] - keep,
              2e-5 + 1e-4 * Math.abs(numeric),
              "table " + p + ", entry " + i + ", " + data.features().getClass().getSimpleName());
        }
      }
    }
  }

  private static FactorizedModel train(
      Dataset data, int rank, Sampling sampling, int threads, int iterations, long seed) {
    SampledSpec options =
        SampledSpec.builder(Method.AR_SOFTMAX)
            .batch(100)
            .sampled(5)
            .threads(threads)
            .seed(seed)
            .sampling(sampling)
            .stepSize(StepSizeSchedule.FACTORIZED_UNDER_RULE)
            .build();
    FactorizedModel model = FactorizedTrainer.initialModel(data, options, rank);
    try (FactorizedTrainer trainer = new FactorizedTrainer(data, model, options, KERNELS)) {
      for (int t = 0; t < iterations; t++) {
        assertTrue(Double.isFinite(trainer.step()));
      }
    }
    return model;
  }

  @Test
  void perExampleRunsAreTheSameForAnyThreadCount() {
    FactorizedSet set = SyntheticData.factorizedSoftmax(KERNELS, 3000, 40, 30, 4, 0.5, 0.2, 5);
    FactorizedModel one = train(set.data(), 4, Sampling.PER_EXAMPLE, 1, 100, 9);
    FactorizedModel two = train(set.data(), 4, Sampling.PER_EXAMPLE, 2, 100, 9);
    assertArrayEquals(one.inputs(), two.inputs());
    assertArrayEquals(one.outputs(), two.outputs());
    assertArrayEquals(one.biases(), two.biases());
  }

  /**
   * {@code method} on two threads, |B| = 500, |S| = 10, with the factorized step under the rule.
   */
  private static SampledSpec underRule(Method method) {
    return SampledSpec.builder(method)
        .batch(500)
        .sampled(10)
        .threads(2)
        .stepSize(StepSizeSchedule.FACTORIZED_UNDER_RULE)
        .build();
  }

  /**
   * Known truth: a rank-4 softmax with K = 40 classes over D = 60 sparse features; A&R under the
   * converge issue's stopping rule and step defaults, watching training rows as train does, from
   * the random start, through the Fitter's flow (the rule watching training rows, as train runs
   * it), with per-example and shared class sets, comes within 1% of the generating model's exact
   * test log-likelihood; also with shared sets drawn with replacement by frequency^0.5.
   */
  @Test
  void recoversAKnownRankFourModel() {
    int rank = 4;
    FactorizedSet all =
        SyntheticData.factorizedSoftmax(KERNELS, 44_000, 60, 40, rank, 0.5, 0.1, 17);
    Dataset[] split = trainAndTest(all, 40_000);
    Dataset train = split[0];
    Dataset test = split[1];
    FactorizedModel truth =
        new FactorizedModel(Link.SOFTMAX, 40, 60, rank, all.inputs(), all.outputs(), all.biases());
    double best = Evaluation.evaluate(truth, test, KERNELS, 5, 2).meanLogLikelihood();
    for (Sampling sampling : Sampling.values()) {
      for (double power : sampling == Sampling.SHARED ? new double[] {0, 0.5} : new double[] {0}) {
        Fit fit =
            Fitter.softmax()
                .method(Method.AR_SOFTMAX)
                .rank(rank)
                .batch(500)
                .sampled(10)
                .threads(2)
                .sampling(sampling)
                .samplingPower(power)
                .maxEpochs(60)
                .fit(train);
        double fitted = Evaluation.evaluate(fit.model(), test, KERNELS, 5, 2).meanLogLikelihood();
        assertTrue(
            fitted > best * 1.01,
            sampling
                + ", power "
                + power
                + ": test log-likelihood "
                + fitted
                + " vs the truth's "
                + best
                + ", "
                + fit.stoppedBecause()
                + " after "
                + fit.epochs()
                + " epochs");
      }
    }
  }

  /**
   * The bounds without a float step on the shared gemm's row (here OVE) take their step in doubles
   * from the gemm's scores, biases included: shared and per-example class sets, the same epochs
   * from the same start, land at the same test log-likelihood, well above the start's.
   */
  @Test
  void sharedSetsGiveOveThePerExampleFit() {
    int rank = 4;
    FactorizedSet all =
        SyntheticData.factorizedSoftmax(KERNELS, 12_000, 60, 40, rank, 0.5, 0.1, 23);
    Dataset[] split = trainAndTest(all, 10_000);
    Dataset train = split[0];
    Dataset test = split[1];
    SampledSpec common = underRule(Method.OVE);
    double start =
        Evaluation.evaluate(
                FactorizedTrainer.initialModel(train, common, rank), test, KERNELS, 5, 2)
            .meanLogLikelihood();
    double[] fitted = new double[2];
    Sampling[] samplings = {Sampling.PER_EXAMPLE, Sampling.SHARED};
    for (int m = 0; m < 2; m++) {
      SampledSpec options = common.toBuilder().sampling(samplings[m]).build();
      FactorizedModel model = FactorizedTrainer.initialModel(train, options, rank);
      try (FactorizedTrainer trainer = new FactorizedTrainer(train, model, options, KERNELS)) {
        for (int t = 0; t < 15 * trainer.iterationsPerEpoch(); t++) {
          trainer.step();
        }
      }
      fitted[m] = Evaluation.evaluate(model, test, KERNELS, 5, 2).meanLogLikelihood();
    }
    assertTrue(fitted[0] > start + 0.3, "per-example " + fitted[0] + " from " + start);
    assertEquals(fitted[0], fitted[1], 0.02 * Math.abs(fitted[0]), "shared against per-example");
  }

  /**
   * A rank-8 softmax over K = 2000 classes with |B| = 100, so that a class is a label in only one
   * batch in twenty, as at K = 10⁴ with |B| = 500, where training diverged: with the paper's
   * smoothing 0.1 the adaptive step pushed the biases apart by about 3 an epoch (largest |b_k| 13.7
   * after three epochs, against the generating model's 3.3). With {@link
   * StepSizeSchedule#FACTORIZED_UNDER_RULE} they stay at the generating model's scale, and the test
   * log-likelihood is closer to the truth's.
   */
  @Test
  void biasesOfManyRareClassesStayAtTheTruthsScale() {
    int rank = 8;
    int rows = 40_000;
    FactorizedSet all =
        SyntheticData.factorizedSoftmax(KERNELS, rows + 4000, 2000, 2000, rank, 0.5, 0.005, 3);
    Dataset train = all.data().subset(IntStream.range(0, rows).toArray());
    Dataset test = all.data().subset(IntStream.range(rows, rows + 4000).toArray());
    FactorizedModel truth =
        new FactorizedModel(
            Link.SOFTMAX, 2000, 2000, rank, all.inputs(), all.outputs(), all.biases());
    double best = Evaluation.evaluate(truth, test, KERNELS, 5, 2).meanLogLikelihood();
    SampledSpec options =
        SampledSpec.builder(Method.AR_SOFTMAX)
            .batch(100)
            .sampled(100)
            .threads(2)
            .stepSize(StepSizeSchedule.FACTORIZED_UNDER_RULE)
            .build();
    FactorizedModel model = FactorizedTrainer.initialModel(train, options, rank);
    try (FactorizedTrainer trainer = new FactorizedTrainer(train, model, options, KERNELS)) {
      for (int t = 0; t < 3 * trainer.iterationsPerEpoch(); t++) {
        trainer.step();
      }
    }
    double largest = Arrays.stream(model.biases()).map(Math::abs).max().orElseThrow();
    double truthLargest = Arrays.stream(all.biases()).map(Math::abs).max().orElseThrow();
    assertTrue(
        largest < 2 * truthLargest,
        "largest |b_k| " + largest + " against the truth's " + truthLargest);
    double fitted = Evaluation.evaluate(model, test, KERNELS, 5, 2).meanLogLikelihood();
    assertTrue(fitted > best * 1.25, "test log-likelihood " + fitted + " vs the truth's " + best);
  }

  @Test
  void refusesAModelOfAnotherLinkOrShape() {
    Dataset data = smallSet(10, 4, 3, 1);
    SampledSpec options = SampledSpec.builder(Method.AR_SOFTMAX).batch(5).sampled(2).build();
    FactorizedModel probit = FactorizedModel.zeros(Link.PROBIT, 3, 4, 2);
    IllegalArgumentException link =
        assertThrows(
            IllegalArgumentException.class,
            () -> new FactorizedTrainer(data, probit, options, KERNELS));
    assertTrue(link.getMessage().contains("PROBIT"), link.getMessage());
    FactorizedModel wide = FactorizedModel.zeros(Link.SOFTMAX, 3, 5, 2);
    IllegalArgumentException shape =
        assertThrows(
            IllegalArgumentException.class,
            () -> new FactorizedTrainer(data, wide, options, KERNELS));
    assertTrue(shape.getMessage().contains("D = 5"), shape.getMessage());
  }
}
