package org.largecat.peers;

import java.util.SplittableRandom;

/**
 * The data every library of the comparison fits and scores: labels drawn from a known softmax model
 * (weights and biases Gaussian, features standard normal), as shared/api/Example.java draws them.
 * The weights, the training rows and the test rows come from three streams split off one seed, so a
 * process that only scores rebuilds the test rows without drawing the training rows.
 */
final class PeerData {
  /** Standard deviation of a weight: the utilities' spread is 0.25·√D, 2.5 at D = 100. */
  static final double WEIGHT_SCALE = 0.25;

  final int classes;
  final int columns;
  final float[][] x;
  final int[] y;
  final float[][] xTest;
  final int[] yTest;
  /** Mean log-likelihood of the test labels under the generating model. */
  final double truthLogLikelihood;

  private PeerData(
      int classes, int columns, float[][] x, int[] y, float[][] xTest, int[] yTest, double truth) {
    this.classes = classes;
    this.columns = columns;
    this.x = x;
    this.y = y;
    this.xTest = xTest;
    this.yTest = yTest;
    this.truthLogLikelihood = truth;
  }

  /** Training rows (none when {@code rows} is 0) and test rows of the model seeded by {@code seed}. */
  static PeerData generate(long seed, int classes, int columns, int rows, int testRows) {
    SplittableRandom root = new SplittableRandom(seed);
    SplittableRandom weightStream = root.split();
    SplittableRandom trainStream = root.split();
    SplittableRandom testStream = root.split();
    double[] w = new double[classes * columns];
    double[] b = new double[classes];
    for (int c = 0; c < classes; c++) {
      b[c] = weightStream.nextGaussian() * 0.5;
      for (int j = 0; j < columns; j++) {
        w[c * columns + j] = weightStream.nextGaussian() * WEIGHT_SCALE;
      }
    }
    float[][] x = new float[rows][];
    int[] y = new int[rows];
    double[] p = new double[classes];
    for (int i = 0; i < rows; i++) {
      x[i] = row(trainStream, columns);
      y[i] = draw(trainStream, w, b, x[i], p);
    }
    float[][] xTest = new float[testRows][];
    int[] yTest = new int[testRows];
    double truth = 0;
    for (int i = 0; i < testRows; i++) {
      xTest[i] = row(testStream, columns);
      yTest[i] = draw(testStream, w, b, xTest[i], p);
      truth += Math.log(p[yTest[i]]) / testRows;
    }
    return new PeerData(classes, columns, x, y, xTest, yTest, truth);
  }

  private static float[] row(SplittableRandom random, int columns) {
    float[] row = new float[columns];
    for (int j = 0; j < columns; j++) {
      row[j] = (float) random.nextGaussian();
    }
    return row;
  }

  /** Fills p with the model's probabilities for x and draws a label from them. */
  private static int draw(SplittableRandom random, double[] w, double[] b, float[] x, double[] p) {
    int classes = b.length;
    int columns = x.length;
    double max = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < classes; c++) {
      double s = b[c];
      for (int j = 0; j < columns; j++) {
        s += w[c * columns + j] * x[j];
      }
      p[c] = s;
      max = Math.max(max, s);
    }
    double sum = 0;
    for (int c = 0; c < classes; c++) {
      sum += p[c] = Math.exp(p[c] - max);
    }
    for (int c = 0; c < classes; c++) {
      p[c] /= sum;
    }
    double u = random.nextDouble();
    double acc = 0;
    for (int c = 0; c < classes; c++) {
      if ((acc += p[c]) > u) {
        return c;
      }
    }
    return classes - 1;
  }

  /** The rows as doubles, for Smile. */
  static double[][] toDouble(float[][] rows) {
    double[][] out = new double[rows.length][];
    for (int i = 0; i < rows.length; i++) {
      out[i] = new double[rows[i].length];
      for (int j = 0; j < rows[i].length; j++) {
        out[i][j] = rows[i][j];
      }
    }
    return out;
  }

  /** The rows one after the other, for largecat's batch predict. */
  static float[] rowMajor(float[][] rows) {
    int columns = rows[0].length;
    float[] out = new float[rows.length * columns];
    for (int i = 0; i < rows.length; i++) {
      System.arraycopy(rows[i], 0, out, i * columns, columns);
    }
    return out;
  }
}
