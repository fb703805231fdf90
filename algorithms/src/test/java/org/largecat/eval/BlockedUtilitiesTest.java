package org.largecat.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.LogSoftmax;

/**
 * A linear model's utilities by blocks of rows (one float gemm each, or one gather-dot a row for
 * very sparse rows) against a per-example computation in double written here: N and K are not
 * multiples of the block, classes tie exactly, and 1 and 3 threads agree bit for bit.
 */
class BlockedUtilitiesTest {
  private static final int ROWS = 101;
  private static final int CLASSES = 37;
  private static final double UNIT_ROUNDOFF = 0x1p-24;

  /** Classes whose weights and biases copy another's: their utilities tie exactly. */
  private static final int[][] TWINS = {{3, 30}, {5, 6}, {5, 20}};

  /**
   * {@code layout}: dense, sparse (5 of 40 columns stored: written densely into the block) or
   * sparsest (2 of 700: one gather-dot a row).
   */
  @ParameterizedTest(name = "{0} x, D = {1}, {2}")
  @CsvSource({
    "dense, 19, scalar",
    "dense, 19, auto",
    "sparse, 40, scalar",
    "sparse, 40, auto",
    "sparsest, 700, scalar",
    "sparsest, 700, auto"
  })
  void matchesAPerExampleDoubleComputation(String layout, int columns, String backend) {
    SplittableRandom random = new SplittableRandom(columns);
    Dataset data = data(layout, columns, random);
    LinearModel model = model(columns, random);
    Kernels kernels = Kernels.of(backend);
    Predictor predictor = new Predictor(model, kernels);
    double[] psi = new double[CLASSES];
    double[] logP = new double[CLASSES];
    double sumTruth = 0;
    double sumBound = 0;
    int correct = 0;
    int correctTop5 = 0;
    for (int n = 0; n < ROWS; n++) {
      double[] truth = new double[CLASSES];
      double[] magnitude = new double[CLASSES];
      for (int k = 0; k < CLASSES; k++) {
        truth[k] = model.biases()[k];
        for (int j = 0; j < columns; j++) {
          double term = (double) data.features().get(n, j) * model.weights()[k * columns + j];
          truth[k] += term;
          magnitude[k] += Math.abs(term);
        }
      }
      predictor.utilities(data.features(), n, psi);
      // A float sum of D products, rounded to float: at most (D + 1) u Σ_j |x_j w_kj| off.
      double worst = 0;
      for (int k = 0; k < CLASSES; k++) {
        double bound = (columns + 1) * UNIT_ROUNDOFF * magnitude[k];
        worst = Math.max(worst, bound);
        assertTrue(
            Math.abs(psi[k] - truth[k]) <= bound,
            "row " + n + ", class " + k + ": " + psi[k] + " against " + truth[k]);
      }
      for (int[] twin : TWINS) {
        assertEquals(psi[twin[0]], psi[twin[1]], "row " + n + ": twins tie");
      }
      int y = data.labels()[n];
      double logZ = LogSoftmax.logSumExp(truth);
      // log p_y moves by at most its own error plus the largest one (the log-normaliser's).
      assertEquals(
          truth[y] - logZ, predictor.logProbability(psi, y), 2 * worst + 1e-12, "row " + n);
      predictor.logProbabilities(psi, logP);
      for (int k = 0; k < CLASSES; k++) {
        assertEquals(truth[k] - logZ, logP[k], 2 * worst + 1e-12, "row " + n + ", class " + k);
      }
      sumTruth += truth[y] - logZ;
      sumBound += 2 * worst;
      int above = 0;
      for (int k = 0; k < CLASSES; k++) {
        above += truth[k] > truth[y] || (truth[k] == truth[y] && k < y) ? 1 : 0;
      }
      correct += above == 0 ? 1 : 0;
      correctTop5 += above < 5 ? 1 : 0;
    }
    Evaluation.Result one = Evaluation.evaluate(model, data, kernels, 5, 1);
    Evaluation.Result three = Evaluation.evaluate(model, data, kernels, 5, 3);
    assertEquals(sumTruth / ROWS, one.meanLogLikelihood(), sumBound / ROWS + 1e-12);
    assertEquals((double) correct / ROWS, one.accuracy());
    assertEquals((double) correctTop5 / ROWS, one.topKAccuracy());
    assertEquals(
        Double.doubleToRawLongBits(one.meanLogLikelihood()),
        Double.doubleToRawLongBits(three.meanLogLikelihood()),
        "1 and 3 threads");
    assertEquals(one.accuracy(), three.accuracy());
    assertEquals(one.topKAccuracy(), three.topKAccuracy());
  }

  /** The probit quadrature on the blocked utilities: 1 and 3 threads agree bit for bit. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"scalar", "auto"})
  void probitThreadsAgree(String backend) {
    SplittableRandom random = new SplittableRandom(1);
    Dataset data = data("dense", 19, random);
    LinearModel softmax = model(19, random);
    LinearModel probit =
        new LinearModel(Link.PROBIT, CLASSES, 19, softmax.weights(), softmax.biases());
    Kernels kernels = Kernels.of(backend);
    Evaluation.Result one = Evaluation.evaluate(probit, data, kernels, 5, 1);
    Evaluation.Result three = Evaluation.evaluate(probit, data, kernels, 5, 3);
    assertEquals(
        Double.doubleToRawLongBits(one.meanLogLikelihood()),
        Double.doubleToRawLongBits(three.meanLogLikelihood()));
    assertEquals(one.topKAccuracy(), three.topKAccuracy());
  }

  /**
   * ROWS rows: dense N(0, 1); sparse with 5 of 40 columns; sparsest with 2 of 700. Half the labels
   * are twin classes, so that ties decide the ranks.
   */
  private static Dataset data(String layout, int columns, SplittableRandom random) {
    Features x;
    if (layout.equals("dense")) {
      float[] values = new float[ROWS * columns];
      for (int i = 0; i < values.length; i++) {
        values[i] = (float) random.nextGaussian();
      }
      x = new DenseFeatures(ROWS, columns, values);
    } else {
      int stored = layout.equals("sparse") ? 5 : 2;
      int[] indptr = new int[ROWS + 1];
      int[] indices = new int[ROWS * stored];
      float[] values = new float[ROWS * stored];
      for (int n = 0; n < ROWS; n++) {
        indptr[n + 1] = indptr[n] + stored;
        for (int s = 0; s < stored; s++) {
          // Increasing, distinct columns: one in each of `stored` equal bands.
          int band = columns / stored;
          indices[n * stored + s] = s * band + random.nextInt(band);
          values[n * stored + s] = (float) random.nextGaussian();
        }
      }
      x = new SparseFeatures(ROWS, columns, indptr, indices, values);
    }
    int[] labels = new int[ROWS];
    for (int n = 0; n < ROWS; n++) {
      int[] twin = TWINS[random.nextInt(TWINS.length)];
      labels[n] = n % 2 == 0 ? twin[random.nextInt(2)] : random.nextInt(CLASSES);
    }
    return new Dataset(x, labels, CLASSES);
  }

  private static LinearModel model(int columns, SplittableRandom random) {
    float[] w = new float[CLASSES * columns];
    double[] b = new double[CLASSES];
    for (int i = 0; i < w.length; i++) {
      w[i] = (float) (random.nextGaussian() / Math.sqrt(columns) * 3);
    }
    for (int k = 0; k < CLASSES; k++) {
      b[k] = 0.5 * random.nextGaussian();
    }
    for (int[] twin : TWINS) {
      System.arraycopy(w, twin[0] * columns, w, twin[1] * columns, columns);
      b[twin[1]] = b[twin[0]];
    }
    return new LinearModel(Link.SOFTMAX, CLASSES, columns, w, b);
  }
}
