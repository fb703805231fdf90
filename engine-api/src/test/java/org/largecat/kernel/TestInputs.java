package org.largecat.kernel;

import java.util.SplittableRandom;

/**
 * Inputs for the cross-validation suite: lengths chosen by loop path, and values that mix ordinary
 * numbers with the adversarial ones (+-0, subnormals, +-Inf, NaN, huge and tiny magnitudes).
 */
public final class TestInputs {
  /**
   * Lengths that hit every loop path of a vector kernel for 2, 4, 8 and 16 lanes with unrolling by
   * up to 4: empty, shorter than one vector, exactly one vector, one vector plus a tail, the
   * unrolled body with and without a tail, and long runs.
   */
  public static final int[] LENGTHS = {
    0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 257, 1000
  };

  /** Offsets into the arrays: aligned and not. */
  public static final int[] OFFSETS = {0, 3};

  public static final double[] ADVERSARIAL_DOUBLES = {
    0.0,
    -0.0,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    2.5e-320,
    Double.MIN_NORMAL,
    -Double.MIN_NORMAL,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.NaN,
    1e300,
    -1e300,
    1e-300,
    -1e-300,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    1.0,
    -1.0,
    0.5,
    -0.5,
    709.78,
    -745.13,
    710,
    -746,
    40,
    -40,
    1e10,
    -1e10
  };

  public static final float[] ADVERSARIAL_FLOATS = {
    0f,
    -0f,
    Float.MIN_VALUE,
    -Float.MIN_VALUE,
    Float.MIN_NORMAL,
    Float.POSITIVE_INFINITY,
    Float.NEGATIVE_INFINITY,
    Float.NaN,
    Float.MAX_VALUE,
    -Float.MAX_VALUE,
    1e30f,
    -1e30f,
    1e-30f,
    1f,
    -1f,
    88.72f,
    88.73f,
    -87.34f,
    -103.97f,
    -104f,
    40f,
    -40f
  }; // about where e^x overflows, goes subnormal, underflows

  private TestInputs() {}

  /** Doubles of ordinary size in [-scale, scale]. */
  public static double[] uniform(SplittableRandom random, int length, double scale) {
    double[] v = new double[length];
    for (int i = 0; i < length; i++) {
      v[i] = scale * (2 * random.nextDouble() - 1);
    }
    return v;
  }

  /** Floats of ordinary size in [-1, 1]. */
  public static float[] uniformFloats(SplittableRandom random, int length) {
    float[] v = new float[length];
    for (int i = 0; i < length; i++) {
      v[i] = (float) (2 * random.nextDouble() - 1);
    }
    return v;
  }

  /** Doubles of either sign with magnitudes spread log-uniformly over [1e-320, 1e300]. */
  public static double[] logUniform(SplittableRandom random, int length) {
    double[] v = new double[length];
    for (int i = 0; i < length; i++) {
      double magnitude = Math.pow(10, -320 + 620 * random.nextDouble());
      v[i] = random.nextBoolean() ? magnitude : -magnitude;
    }
    return v;
  }

  /** Replaces a random tenth of the elements with adversarial values. */
  public static void sprinkle(SplittableRandom random, double[] v) {
    for (int i = 0; i < v.length; i++) {
      if (random.nextInt(10) == 0) {
        v[i] = ADVERSARIAL_DOUBLES[random.nextInt(ADVERSARIAL_DOUBLES.length)];
      }
    }
  }

  /** Replaces a random tenth of the elements with adversarial values. */
  public static void sprinkle(SplittableRandom random, float[] v) {
    for (int i = 0; i < v.length; i++) {
      if (random.nextInt(10) == 0) {
        v[i] = ADVERSARIAL_FLOATS[random.nextInt(ADVERSARIAL_FLOATS.length)];
      }
    }
  }

  /** A copy of v placed at offset in a longer array whose other elements are NaN sentinels. */
  public static double[] atOffset(double[] v, int offset) {
    double[] r = new double[v.length + offset + 2];
    java.util.Arrays.fill(r, Double.NaN);
    System.arraycopy(v, 0, r, offset, v.length);
    return r;
  }

  /** A copy of v placed at offset in a longer array whose other elements are NaN sentinels. */
  public static float[] atOffset(float[] v, int offset) {
    float[] r = new float[v.length + offset + 2];
    java.util.Arrays.fill(r, Float.NaN);
    System.arraycopy(v, 0, r, offset, v.length);
    return r;
  }
}
