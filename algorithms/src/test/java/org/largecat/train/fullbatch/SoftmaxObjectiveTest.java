package org.largecat.train.fullbatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;

/**
 * The full-batch objective: its gradient against central differences, dense and sparse storage
 * against each other, the same bits on any thread count, and no N × K buffer.
 */
class SoftmaxObjectiveTest {
  private static final Kernels KERNELS = Kernels.get();

  /**
   * Every coordinate of ∇F against (F(θ + h e_i) − F(θ − h e_i)) / 2h, h = 1e-5: its error, about
   * h² F‴ / 6 plus the rounding of F over h, is below 1e-9 here.
   */
  @ParameterizedTest
  @CsvSource({"dense, 0", "dense, 2", "sparse, 0", "sparse, 2"})
  void gradientMatchesCentralDifferences(String storage, double priorVariance) {
    Dataset data =
        storage.equals("dense")
            ? TestProblems.dense(500, 6, 7, 3)
            : TestProblems.sparse(500, 6, 7, 3);
    try (SoftmaxObjective objective = new SoftmaxObjective(data, priorVariance, 2, KERNELS)) {
      double[] theta = TestProblems.randomParameters(objective.parameters(), 0.5, 4);
      double[] gradient = new double[theta.length];
      objective.valueAndGradient(theta, gradient);
      double h = 1e-5;
      for (int i = 0; i < theta.length; i++) {
        double[] up = theta.clone();
        double[] down = theta.clone();
        up[i] += h;
        down[i] -= h;
        double difference = (objective.value(up) - objective.value(down)) / (2 * h);
        assertEquals(difference, gradient[i], 1e-9, storage + ": coordinate " + i);
      }
    }
  }

  @Test
  void denseAndSparseStorageGiveTheSameObjective() {
    Dataset sparse = TestProblems.sparse(700, 9, 5, 8);
    Dataset dense = TestProblems.densified(sparse);
    try (SoftmaxObjective fromSparse = new SoftmaxObjective(sparse, 3, 2, KERNELS);
        SoftmaxObjective fromDense = new SoftmaxObjective(dense, 3, 2, KERNELS)) {
      double[] theta = TestProblems.randomParameters(fromDense.parameters(), 1, 9);
      double[] g1 = new double[theta.length];
      double[] g2 = new double[theta.length];
      double f1 = fromSparse.valueAndGradient(theta, g1);
      double f2 = fromDense.valueAndGradient(theta, g2);
      assertEquals(f1, f2, 1e-13 * Math.abs(f1));
      for (int i = 0; i < theta.length; i++) {
        assertEquals(g1[i], g2[i], 1e-13, "coordinate " + i);
      }
    }
  }

  /** F from {@code value} is the F that comes with the gradient, bit for bit. */
  @Test
  void valueAloneIsTheValueOfTheGradientPass() {
    Dataset data = TestProblems.dense(1000, 4, 6, 10);
    try (SoftmaxObjective objective = new SoftmaxObjective(data, 1, 2, KERNELS)) {
      double[] theta = TestProblems.randomParameters(objective.parameters(), 1, 11);
      double withGradient = objective.valueAndGradient(theta, new double[theta.length]);
      assertEquals(
          Double.doubleToRawLongBits(withGradient),
          Double.doubleToRawLongBits(objective.value(theta)));
    }
  }

  /** 5,000 rows are 20 blocks in 16 chunks: F and ∇F on 1, 2 and 3 threads are the same bits. */
  @ParameterizedTest
  @CsvSource({"dense", "sparse"})
  void theThreadCountDoesNotChangeABit(String storage) {
    Dataset data =
        storage.equals("dense")
            ? TestProblems.dense(5000, 10, 12, 12)
            : TestProblems.sparse(5000, 10, 12, 12);
    double[] reference = null;
    long referenceValue = 0;
    for (int threads = 1; threads <= 3; threads++) {
      try (SoftmaxObjective objective = new SoftmaxObjective(data, 5, threads, KERNELS)) {
        double[] theta = TestProblems.randomParameters(objective.parameters(), 0.7, 13);
        double[] gradient = new double[theta.length];
        long value = Double.doubleToRawLongBits(objective.valueAndGradient(theta, gradient));
        if (reference == null) {
          reference = gradient;
          referenceValue = value;
        } else {
          assertEquals(referenceValue, value, threads + " threads");
          assertArrayEquals(reference, gradient, threads + " threads");
        }
      }
    }
  }

  /**
   * N = 200,000 rows and K = 50 classes: an N × K double matrix would be 80 MB, while making the
   * objective and two passes with the gradient allocate under a tenth of that (the JVM's count of
   * bytes allocated by all threads, the pool's included).
   */
  @Test
  void aPassHoldsNoNByKMatrix() {
    int rows = 200_000;
    int classes = 50;
    float[] x = new float[rows * 2];
    int[] labels = new int[rows];
    for (int n = 0; n < rows; n++) {
      x[2 * n] = (n % 7) / 7f;
      x[2 * n + 1] = (n % 11) / 11f;
      labels[n] = n % classes;
    }
    Dataset data = new Dataset(new DenseFeatures(rows, 2, x), labels, classes);
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getTotalThreadAllocatedBytes();
    try (SoftmaxObjective objective = new SoftmaxObjective(data, 1, 2, KERNELS)) {
      double[] theta = new double[objective.parameters()];
      double[] gradient = new double[theta.length];
      objective.valueAndGradient(theta, gradient);
      objective.valueAndGradient(theta, gradient);
    }
    long allocated = threads.getTotalThreadAllocatedBytes() - before;
    long matrix = (long) rows * classes * Double.BYTES;
    assertTrue(allocated < matrix / 10, allocated + " bytes allocated; N × K is " + matrix);
  }

  @Test
  void parametersRoundTripThroughTheModelLayout() {
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, 3, 2);
    float[] w = {1, 2, 3, 4, 5, 6};
    System.arraycopy(w, 0, model.weights(), 0, w.length);
    model.biases()[2] = 7;
    double[] theta = SoftmaxObjective.parametersOf(model);
    assertArrayEquals(new double[] {1, 3, 5, 2, 4, 6, 0, 0, 7}, theta);
    LinearModel back = LinearModel.zeros(Link.SOFTMAX, 3, 2);
    SoftmaxObjective.copyInto(theta, back);
    assertArrayEquals(w, back.weights());
    assertArrayEquals(model.biases(), back.biases());
  }
}
