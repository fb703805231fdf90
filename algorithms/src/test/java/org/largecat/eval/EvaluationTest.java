package org.largecat.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;

/**
 * The evaluation sums in example order: any thread count and any cut into blocks agree bit for bit.
 */
class EvaluationTest {
  private static final Kernels KERNELS = Kernels.of("scalar");
  private static final int ROWS = 40_000; // more than two slices of 2^14
  private static final SyntheticSet SET = SyntheticData.linearSoftmax(ROWS, 7, 13, 0.7, 3);

  private static LinearModel model(Link link) {
    SplittableRandom r = new SplittableRandom(9);
    float[] w = new float[13 * 7];
    double[] b = new double[13];
    for (int i = 0; i < w.length; i++) {
      w[i] = (float) r.nextGaussian();
    }
    for (int k = 0; k < b.length; k++) {
      b[k] = r.nextGaussian();
    }
    return new LinearModel(link, 13, 7, w, b);
  }

  /** The plain sum in example order, one thread: what evaluate gave with --threads 1. */
  private static double sequentialLogLikelihood(LinearModel model, Dataset data) {
    Predictor p = new Predictor(model, KERNELS);
    double[] sum = {0};
    p.forEachScoreRow(
        data.features(),
        0,
        data.rows(),
        1,
        (i, scores) -> sum[0] += scores.logProbability(data.labels()[i]));
    return sum[0] / data.rows();
  }

  @ParameterizedTest(name = "{0}, {1} threads, blocks of {2}")
  @CsvSource({
    "SOFTMAX, 1, 40000",
    "SOFTMAX, 2, 40000",
    "SOFTMAX, 3, 1",
    "SOFTMAX, 2, 16384",
    "SOFTMAX, 5, 9999",
    "PROBIT, 2, 7001"
  })
  void blocksAndThreadsGiveTheSequentialSumBitForBit(Link link, int threads, int blockRows) {
    LinearModel model = model(link);
    Dataset data = link == Link.SOFTMAX ? SET.data() : SET.data().subset(range(0, 9000));
    Evaluation.Accumulator sum = new Evaluation.Accumulator(model, KERNELS, 5, threads);
    for (int from = 0; from < data.rows(); from += blockRows) {
      sum.add(data.subset(range(from, Math.min(data.rows(), from + blockRows))));
    }
    Evaluation.Result blocks = sum.result();
    Evaluation.Result whole = Evaluation.evaluate(model, data, KERNELS, 5, 1);
    assertEquals(
        Double.doubleToRawLongBits(sequentialLogLikelihood(model, data)),
        Double.doubleToRawLongBits(whole.meanLogLikelihood()),
        "whole, one thread");
    assertEquals(
        Double.doubleToRawLongBits(whole.meanLogLikelihood()),
        Double.doubleToRawLongBits(blocks.meanLogLikelihood()),
        "blocks");
    assertEquals(whole.accuracy(), blocks.accuracy());
    assertEquals(whole.topKAccuracy(), blocks.topKAccuracy());
    assertEquals(data.rows(), blocks.examples());
  }

  /**
   * The float rows of forEachScoreRow against the same utilities in double (forEachRow) through the
   * double log-sum-exp: log p within 2^-21 (the float exponentials, 2 float ulps a term, and the
   * float differences ψ_k − max, 2^-24 |ψ_k − max| a term, summed in double) plus 2^-23 times the
   * row's span; the ranks equal.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"scalar", "auto"})
  void floatRowsAgreeWithTheDoubleUtilities(String backend) {
    LinearModel model = model(Link.SOFTMAX);
    Dataset data = SET.data().subset(range(0, 3000));
    Kernels kernels = Kernels.of(backend);
    Predictor floats = new Predictor(model, kernels);
    Predictor doubles = new Predictor(model, kernels);
    int[] labels = data.labels();
    double[] logP = new double[data.rows()];
    int[] ranks = new int[data.rows()];
    double[] bound = new double[data.rows()];
    floats.forEachScoreRow(
        data.features(),
        0,
        data.rows(),
        1,
        (i, scores) -> {
          float min = scores.max();
          for (int k = 0; k < 13; k++) {
            min = Math.min(min, scores.scores()[scores.offset() + k]);
          }
          logP[i] = scores.logProbability(labels[i]);
          ranks[i] = scores.rank(labels[i], 5);
          bound[i] = 0x1p-21 + 0x1p-23 * ((double) scores.max() - min);
        });
    doubles.forEachRow(
        data.features(),
        0,
        data.rows(),
        1,
        (i, psi) -> {
          assertEquals(doubles.logProbability(psi, labels[i]), logP[i], bound[i], "row " + i);
          assertEquals(Math.min(5, ClassRanks.rank(psi, labels[i])), ranks[i], "row " + i);
        });
  }

  @Test
  void aNonFiniteScoreNamesTheExampleOfTheFile() {
    LinearModel model = model(Link.SOFTMAX);
    // Class 0, feature 0: the rows with no stored values never see it; the next block's rows all
    // store feature 0 (in a gemm block, a row that does not store it also sees 0 · NaN = NaN).
    model.weights()[0] = Float.NaN;
    Evaluation.Accumulator sum = new Evaluation.Accumulator(model, KERNELS, 5, 2);
    sum.add(
        new Dataset(
            new SparseFeatures(100, 7, new int[101], new int[0], new float[0]), new int[100], 13));
    Dataset block =
        new Dataset(
            new SparseFeatures(
                3, 7, new int[] {0, 1, 2, 3}, new int[] {0, 0, 0}, new float[] {1f, 2f, 3f}),
            new int[] {0, 1, 2},
            13);
    NonFiniteScoreException e = assertThrows(NonFiniteScoreException.class, () -> sum.add(block));
    assertTrue(e.getMessage().startsWith("example 101: "), e.getMessage());
  }

  @Test
  void nothingEvaluatedIsNoScore() {
    Evaluation.Accumulator sum = new Evaluation.Accumulator(model(Link.SOFTMAX), KERNELS, 5, 1);
    assertThrows(IllegalStateException.class, sum::result);
  }

  private static int[] range(int from, int to) {
    return IntStream.range(from, to).toArray();
  }
}
