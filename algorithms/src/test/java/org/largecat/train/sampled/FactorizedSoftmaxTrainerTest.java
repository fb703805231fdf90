package org.largecat.train.sampled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.FactorizedSet;
import org.largecat.data.SyntheticData;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.Link;
import org.largecat.model.SoftmaxBlock;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.StoppingRule;
import org.largecat.train.TrainingRun;

class FactorizedSoftmaxTrainerTest {
  private static final Kernels KERNELS = Kernels.of("scalar");
  private static final double U = 0x1p-24;

  /** Higham's γ_m = m u / (1 − m u): the relative error bound of a float sum of m terms. */
  private static double gamma(int m) {
    return m * U / (1 - m * U);
  }

  /**
   * The trainer's weights after a step from {@code v, u, b}, against the same step computed here in
   * double example by example: h_n = Σ_j x_nj v_j, p = softmax(U h_n + b), c = e_y − p, and the
   * gradients Σ_n c h_nᵀ, Σ_n c, and x_nj Σ_k c_k u_k. Each coordinate's tolerance is the float-sum
   * bound of the trainer's computation: its h, scores, probabilities and three gemm sums, each
   * within γ_m of the sum of the absolute values of its m terms, carried through to the gradient
   * and the SGD step.
   */
  private static void assertStep(
      Dataset data,
      FactorizedModel model,
      double[] v,
      double[] u,
      double[] b,
      double rate,
      double logLikelihood) {
    int rows = data.rows();
    int columns = data.columns();
    int classes = data.classes();
    int rank = model.rank();
    double[] gv = new double[v.length];
    double[] gu = new double[u.length];
    double[] gb = new double[classes];
    double[] ev = new double[v.length];
    double[] eu = new double[u.length];
    double[] eb = new double[classes];
    double expected = 0;
    double expectedError = 0;
    for (int n = 0; n < rows; n++) {
      int nonzeros = 0;
      double[] h = new double[rank];
      double[] hAbs = new double[rank];
      for (int j = 0; j < columns; j++) {
        double x = data.features().get(n, j);
        nonzeros += x == 0 ? 0 : 1;
        for (int i = 0; i < rank; i++) {
          h[i] += x * v[j * rank + i];
          hAbs[i] += Math.abs(x * v[j * rank + i]);
        }
      }
      double[] eh = new double[rank];
      for (int i = 0; i < rank; i++) {
        eh[i] = gamma(nonzeros) * hAbs[i];
      }
      double[] psi = new double[classes];
      double[] ePsi = new double[classes];
      double max = Double.NEGATIVE_INFINITY;
      double largestError = 0;
      for (int k = 0; k < classes; k++) {
        psi[k] = b[k];
        double magnitude = Math.abs(b[k]);
        for (int i = 0; i < rank; i++) {
          psi[k] += u[k * rank + i] * h[i];
          magnitude += Math.abs(u[k * rank + i]) * (Math.abs(h[i]) + eh[i]);
          ePsi[k] += Math.abs(u[k * rank + i]) * eh[i];
        }
        ePsi[k] += gamma(rank + 1) * magnitude;
        max = Math.max(max, psi[k]);
        largestError = Math.max(largestError, ePsi[k]);
      }
      double z = 0;
      double spread = 0;
      for (int k = 0; k < classes; k++) {
        z += Math.exp(psi[k] - max);
        spread = Math.max(spread, Math.abs(psi[k] - max));
      }
      int y = data.labels()[n];
      expected += psi[y] - max - Math.log(z);
      // log p_k moves by at most twice the largest score error; the float difference ψ_k − m,
      // the exponential (2 ulps) and the normalisation add their roundings, in the numerator and
      // in every term of the denominator.
      double logError = 2 * largestError + 2 * U * (spread + 2) + 2 * U;
      expectedError += logError + U * Math.abs(psi[y]);
      double[] c = new double[classes];
      double[] ec = new double[classes];
      for (int k = 0; k < classes; k++) {
        double p = Math.exp(psi[k] - max) / z;
        c[k] = (k == y ? 1 : 0) - p;
        ec[k] = Math.expm1(logError) * p + U * Math.abs(c[k]);
      }
      for (int k = 0; k < classes; k++) {
        gb[k] += c[k];
        eb[k] += ec[k] + gamma(rows) * (Math.abs(c[k]) + ec[k]);
        for (int i = 0; i < rank; i++) {
          gu[k * rank + i] += c[k] * h[i];
          eu[k * rank + i] +=
              ec[k] * Math.abs(h[i])
                  + Math.abs(c[k]) * eh[i]
                  + gamma(rows) * (Math.abs(c[k]) + ec[k]) * (Math.abs(h[i]) + eh[i]);
        }
      }
      for (int i = 0; i < rank; i++) {
        double g = 0;
        double gAbs = 0;
        double eg = 0;
        for (int k = 0; k < classes; k++) {
          g += c[k] * u[k * rank + i];
          gAbs += (Math.abs(c[k]) + ec[k]) * Math.abs(u[k * rank + i]);
          eg += ec[k] * Math.abs(u[k * rank + i]);
        }
        eg += gamma(classes) * gAbs;
        for (int j = 0; j < columns; j++) {
          double x = data.features().get(n, j);
          gv[j * rank + i] += x * g;
          ev[j * rank + i] += Math.abs(x) * eg + gamma(rows) * Math.abs(x) * (Math.abs(g) + eg);
        }
      }
    }
    assertEquals(expected, logLikelihood, expectedError, "the step's log-likelihood");
    // SGD on the mean: w + rate g / N, in float for the tables (the scale 1/N, the product and the
    // sum each rounded once), in double for the biases but for the scale 1/N and the gradient,
    // floats.
    double step = rate / rows;
    float[][] tables = {model.inputs(), model.outputs()};
    double[][] before = {v, u};
    double[][] gradients = {gv, gu};
    double[][] errors = {ev, eu};
    for (int t = 0; t < 2; t++) {
      for (int i = 0; i < before[t].length; i++) {
        double change = step * gradients[t][i];
        double after = before[t][i] + change;
        double tolerance =
            step * errors[t][i]
                + 3 * U * Math.abs(change)
                + U * (Math.abs(after) + step * errors[t][i]);
        assertEquals(
            after,
            tables[t][i],
            tolerance,
            (t == 0 ? "V" : "U") + " entry " + i + ", gradient " + gradients[t][i]);
      }
    }
    for (int k = 0; k < classes; k++) {
      assertEquals(
          b[k] + step * gb[k],
          model.biases()[k],
          step * eb[k] + 2 * U * Math.abs(step * gb[k]) + 0x1p-50 * Math.abs(b[k]),
          "b_" + k);
    }
  }

  private static double[] widen(float[] values) {
    return IntStream.range(0, values.length).mapToDouble(i -> values[i]).toArray();
  }

  private static Dataset denseCopy(Dataset sparse) {
    int rows = sparse.rows();
    int columns = sparse.columns();
    float[] x = new float[rows * columns];
    for (int n = 0; n < rows; n++) {
      for (int j = 0; j < columns; j++) {
        x[n * columns + j] = sparse.features().get(n, j);
      }
    }
    return new Dataset(new DenseFeatures(rows, columns, x), sparse.labels(), sparse.classes());
  }

  /**
   * Three full-batch plain-SGD steps, each checked from the weights the trainer reached, on sparse
   * and dense x, with one thread and with two (whose gemms sum in other chunks).
   */
  @Test
  void eachStepIsThePerExampleGradientWithinTheFloatSumBound() {
    Dataset sparse = SyntheticData.factorizedSoftmax(KERNELS, 37, 23, 11, 3, 0.8, 0.2, 4).data();
    double rate = 2;
    for (Dataset data : new Dataset[] {sparse, denseCopy(sparse)}) {
      for (int threads = 1; threads <= 2; threads++) {
        SampledSpec options =
            SampledSpec.builder(Method.EXACT_SOFTMAX_SGD)
                .batch(data.rows())
                .sampled(data.classes() - 1)
                .threads(threads)
                .stepSize(new StepSizeSchedule.Sgd(rate, 1))
                .build();
        FactorizedModel model = FactorizedTrainer.initialModel(data, options, 3);
        for (int k = 0; k < model.classes(); k++) {
          model.biases()[k] = 0.4 * k - 1.5;
        }
        try (FactorizedSoftmaxTrainer trainer =
            new FactorizedSoftmaxTrainer(data, model, options, KERNELS)) {
          for (int t = 0; t < 3; t++) {
            double[] v = widen(model.inputs());
            double[] u = widen(model.outputs());
            double[] b = model.biases().clone();
            double logLikelihood = trainer.step();
            assertStep(data, model, v, u, b, rate, logLikelihood);
          }
        }
      }
    }
  }

  /**
   * Known truth: the rank-4 softmax of {@link FactorizedTrainerTest#recoversAKnownRankFourModel},
   * under the same rule and the factorized model's step, comes within 1% of the generating model's
   * exact test log-likelihood.
   */
  @Test
  void recoversAKnownRankFourModel() {
    int rank = 4;
    FactorizedSet all =
        SyntheticData.factorizedSoftmax(KERNELS, 44_000, 60, 40, rank, 0.5, 0.1, 17);
    Dataset[] split = FactorizedTrainerTest.trainAndTest(all, 40_000);
    Dataset train = split[0];
    Dataset test = split[1];
    FactorizedModel truth =
        new FactorizedModel(Link.SOFTMAX, 40, 60, rank, all.inputs(), all.outputs(), all.biases());
    double best = Evaluation.evaluate(truth, test, KERNELS, 5, 2).meanLogLikelihood();
    SampledSpec options =
        SampledSpec.builder(Method.EXACT_SOFTMAX_SGD)
            .batch(500)
            .sampled(39)
            .threads(2)
            .stepSize(StepSizeSchedule.FACTORIZED_UNDER_RULE)
            .build();
    FactorizedModel model = FactorizedTrainer.initialModel(train, options, rank);
    TrainingRun run;
    try (var trainer = FactorizedTrainers.create(train, model, options, KERNELS)) {
      assertTrue(trainer instanceof FactorizedSoftmaxTrainer, trainer.getClass().getName());
      run =
          TrainingRun.until(
              trainer, StoppingRule.DEFAULT.withMaxEpochs(60), (epoch, bound, gain, s) -> {});
    }
    double fitted = Evaluation.evaluate(model, test, KERNELS, 5, 2).meanLogLikelihood();
    assertTrue(
        fitted > best * 1.01,
        "test log-likelihood " + fitted + " vs the truth's " + best + ", " + run);
  }

  @Test
  void refusesAnotherMethodAndABadLabel() {
    Dataset data = SyntheticData.factorizedSoftmax(KERNELS, 10, 5, 3, 2, 0.5, 0.5, 1).data();
    SampledSpec options = SampledSpec.builder(Method.AR_SOFTMAX).batch(5).sampled(2).build();
    FactorizedModel model = FactorizedTrainer.initialModel(data, options, 2);
    IllegalArgumentException method =
        assertThrows(
            IllegalArgumentException.class,
            () -> new FactorizedSoftmaxTrainer(data, model, options, KERNELS));
    assertTrue(method.getMessage().contains("ar-softmax"), method.getMessage());
    IllegalArgumentException label =
        assertThrows(
            IllegalArgumentException.class,
            () -> SoftmaxBlock.lossGradient(KERNELS.vectorOps(), 3, new float[3], 0, 3));
    assertTrue(label.getMessage().contains("label 3"), label.getMessage());
  }
}
