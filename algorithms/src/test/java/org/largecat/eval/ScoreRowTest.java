package org.largecat.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.largecat.data.DenseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;

/**
 * {@link ScoreRow} over K = 700 classes, several runs of the rank's run maxima: its rank equals the
 * double one on the same utilities for every limit, with exact ties planted in different runs and
 * labels on both sides of them, and its log-probability agrees with the double log-sum-exp to float
 * rounding.
 */
class ScoreRowTest {
  private static final int CLASSES = 700;
  private static final int COLUMNS = 5;
  private static final int ROWS = 300;

  /** Classes whose weights and biases copy class 10's: their utilities tie exactly. */
  private static final int[] TWINS = {10, 255, 256, 300, 699};

  @ParameterizedTest(name = "{0}")
  @CsvSource({"scalar", "auto"})
  void ranksAndLogProbabilitiesMatchTheDoubleUtilities(String backend) {
    SplittableRandom random = new SplittableRandom(17);
    float[] w = new float[CLASSES * COLUMNS];
    double[] b = new double[CLASSES];
    for (int i = 0; i < w.length; i++) {
      w[i] = (float) random.nextGaussian();
    }
    for (int k = 0; k < CLASSES; k++) {
      b[k] = random.nextGaussian();
    }
    for (int twin : TWINS) {
      System.arraycopy(w, TWINS[0] * COLUMNS, w, twin * COLUMNS, COLUMNS);
      b[twin] = b[TWINS[0]];
    }
    LinearModel model = new LinearModel(Link.SOFTMAX, CLASSES, COLUMNS, w, b);
    float[] x = new float[ROWS * COLUMNS];
    int[] labels = new int[ROWS];
    for (int n = 0; n < ROWS; n++) {
      // Every third row leans towards the twins' weights, so that their ties decide the top ranks.
      for (int j = 0; j < COLUMNS; j++) {
        double lean = n % 3 == 0 ? 1.5 * w[TWINS[0] * COLUMNS + j] : 0;
        x[n * COLUMNS + j] = (float) (lean + random.nextGaussian());
      }
      labels[n] = n % 3 == 0 ? TWINS[random.nextInt(TWINS.length)] : random.nextInt(CLASSES);
    }
    DenseFeatures features = new DenseFeatures(ROWS, COLUMNS, x);
    Kernels kernels = Kernels.of(backend);
    Predictor floats = new Predictor(model, kernels);
    Predictor doubles = new Predictor(model, kernels);
    double[] psi = new double[CLASSES];
    floats.forEachScoreRow(
        features,
        0,
        ROWS,
        1,
        (n, scores) -> {
          scores.widen(psi);
          int y = labels[n];
          int rank = ClassRanks.rank(psi, y);
          for (int limit : new int[] {1, 2, 5, CLASSES}) {
            assertEquals(Math.min(rank, limit), scores.rank(y, limit), "row " + n + ", " + limit);
          }
          for (int twin : TWINS) {
            assertEquals(Math.min(ClassRanks.rank(psi, twin), 5), scores.rank(twin, 5), "twin");
          }
          double min = Double.POSITIVE_INFINITY;
          for (double value : psi) {
            min = Math.min(min, value);
          }
          double bound = 0x1p-21 + 0x1p-23 * (scores.max() - min);
          assertEquals(doubles.logProbability(psi, y), scores.logProbability(y), bound, "row " + n);
        });
  }
}
