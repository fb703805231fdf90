package org.largecat.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The float exponential of {@link VectorOps#exp} and of {@link VectorOps#softmax}'s terms on every
 * backend, against the exact value (StrictMath.exp of the float argument in double, whose error is
 * a billionth of a float ulp): within 1 float ulp on a dense grid of bit patterns over the whole
 * range, on every argument whose result is subnormal or near overflow, and around the boundaries;
 * exactly 1 at ±0, +0 below the underflow threshold, +Inf above the overflow threshold, NaN for
 * NaN. Softmax terms are seen where the normalisation cannot hide them (see softmaxTerms), and the
 * log-normaliser and probabilities of random rows are held to the contract's bounds against the
 * exact softmax.
 */
class FloatExponentialOracleTest {
  /** Rows by loop path: one element, 16 floats (an AVX-512 vector) and either side, longer rows. */
  private static final int[] LENGTHS = {1, 15, 16, 17, 100, 4099};

  /** Arguments whose results bound a range: ln of the smallest normal and subnormal, overflow. */
  private static final float[] BOUNDARIES = {
    0f,
    -0f,
    Float.MIN_VALUE,
    -Float.MIN_VALUE,
    Float.MIN_NORMAL,
    -Float.MIN_NORMAL,
    (float) Math.log(Float.MIN_NORMAL),
    -87.33f,
    (float) Math.log(Float.MIN_VALUE),
    (float) Math.log(0x1p-150),
    -103.97f,
    -103.98f,
    (float) Math.log(Float.MAX_VALUE),
    88.72f,
    88.73f,
    1e30f,
    -1e30f,
    Float.MAX_VALUE,
    -Float.MAX_VALUE
  };

  /** A float ulp at the exact value e (the smallest subnormal below the normals). */
  private static double unit(double e) {
    return e < Float.MIN_NORMAL ? Float.MIN_VALUE : Math.scalb(1.0, Math.getExponent(e) - 23);
  }

  /**
   * Error of a float exponential in ulps of the exact e^x; 0 for the right infinity or NaN, +Inf
   * for a wrong one.
   */
  private static double ulps(float x, float got) {
    double exact = StrictMath.exp(x);
    if (Float.isNaN(x) || (float) exact == Float.POSITIVE_INFINITY) {
      boolean same = Float.isNaN(x) ? Float.isNaN(got) : got == Float.POSITIVE_INFINITY;
      return same ? 0 : Double.POSITIVE_INFINITY;
    }
    if (!Float.isFinite(got)) {
      return Double.POSITIVE_INFINITY;
    }
    return Math.abs(got - exact) / unit(exact);
  }

  private static void requireWithinOneUlp(String what, float x, float got) {
    double error = ulps(x, got);
    assertTrue(
        error <= 1,
        () -> what + ": e^" + x + " gave " + got + ", " + error + " ulps from " + Math.exp(x));
  }

  /**
   * The arguments of the exp test: every 211th bit pattern from -104 to 89, every float whose
   * exponential is subnormal (-104 to -87.3) or within a factor e of overflow (87.7 to 89), and
   * eight neighbours either side of each boundary, with ±Inf and NaN.
   */
  private static float[] arguments() {
    FloatList args = new FloatList();
    for (int bits = 0; bits <= Float.floatToIntBits(89f); bits += 211) {
      args.add(Float.intBitsToFloat(bits));
    }
    for (int bits = Float.floatToIntBits(-0f); bits <= Float.floatToIntBits(-104f); bits += 211) {
      args.add(Float.intBitsToFloat(bits));
    }
    for (float x = -104f; x <= -87.3f; x = Math.nextUp(x)) {
      args.add(x);
    }
    for (float x = 87.7f; x <= 89f; x = Math.nextUp(x)) {
      args.add(x);
    }
    for (float b : BOUNDARIES) {
      float x = b;
      for (int i = 0; i < 8; i++) {
        x = Math.nextDown(x);
      }
      for (int i = 0; i < 17; i++, x = Math.nextUp(x)) {
        args.add(x);
      }
    }
    args.add(Float.POSITIVE_INFINITY);
    args.add(Float.NEGATIVE_INFINITY);
    args.add(Float.NaN);
    return args.toArray();
  }

  /**
   * exp over the arguments in rows of the test lengths, at an offset and into an offset; the sum of
   * the same row's exponentials (shift 0) within an ulp a term and the double sum's rounding.
   */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void expWithinOneUlp(Kernels k) {
    VectorOps ops = k.vectorOps();
    float[] args = arguments();
    float[] out = new float[LENGTHS[LENGTHS.length - 1] + 2];
    for (int start = 0, row = 0; start < args.length; row++) {
      int n = Math.min(LENGTHS[row % LENGTHS.length], args.length - start);
      ops.exp(n, args, start, out, 2);
      double exactSum = 0;
      double units = 0;
      for (int i = 0; i < n; i++) {
        requireWithinOneUlp("exp", args[start + i], out[2 + i]);
        double exact = StrictMath.exp(args[start + i]);
        exactSum += exact;
        units += unit(exact);
      }
      double sum = ops.sumExp(n, args, start, 0f);
      if (exactSum < Float.MAX_VALUE) { // no NaN, no term beyond float range
        double bound = units + Agreement.sum(n, exactSum, Agreement.DOUBLE_UNIT);
        assertEquals(exactSum, sum, bound, "sumExp of a row");
      }
      start += n;
    }
  }

  /** The values the contract fixes exactly. */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void expSpecialValuesExactly(Kernels k) {
    float[] x = {
      0f,
      -0f,
      -103.98f,
      -104f,
      -1e30f,
      Float.NEGATIVE_INFINITY,
      88.73f,
      1e30f,
      Float.POSITIVE_INFINITY
    };
    float[] want = {
      1, 1, 0, 0, 0, 0, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY
    };
    for (int n : new int[] {x.length, 16, 17}) {
      float[] row = new float[n];
      for (int i = 0; i < n; i++) {
        row[i] = x[i % x.length];
      }
      k.vectorOps().exp(n, row, 0, row, 0); // in place
      for (int i = 0; i < n; i++) {
        // +0, not -0: the bits compare.
        assertEquals(
            Float.floatToRawIntBits(want[i % x.length]),
            Float.floatToRawIntBits(row[i]),
            "e^" + x[i % x.length] + " gave " + row[i]);
      }
      float[] nan = new float[n];
      Arrays.fill(nan, Float.NaN);
      k.vectorOps().exp(n, nan, 0, nan, 0);
      for (float e : nan) {
        assertTrue(Float.isNaN(e), "e^NaN gave " + e);
      }
    }
  }

  /**
   * Softmax terms, seen in two ways on rows of the test lengths with the maximum 0 first and the
   * difference d last. Where d <= -46, the whole row's other terms sum below 2^-54, so the double
   * sum is exactly 1 and each probability is its term unscaled. Where -20 <= d <= 0, the row is (0,
   * -Inf, ..., d): the sum 1 + e^d is exact in double, so the log-normaliser log(1 + e^d) gives the
   * term back through expm1 to a relative 1e-15, far inside a float ulp.
   */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void softmaxTerms(Kernels k) {
    VectorOps ops = k.vectorOps();
    FloatList deep = new FloatList();
    for (float d = -104f; d <= -87.3f; d = Math.nextUp(d)) {
      deep.add(d);
    }
    for (int bits = Float.floatToIntBits(-87.3f); bits >= Float.floatToIntBits(-46f); bits -= 97) {
      deep.add(Float.intBitsToFloat(bits));
    }
    float[] deepArgs = deep.toArray();
    for (int start = 0, row = 0; start < deepArgs.length; row++) {
      int n = Math.min(LENGTHS[row % LENGTHS.length], deepArgs.length - start + 1);
      float[] v = new float[n + 1];
      v[1] = 0;
      System.arraycopy(deepArgs, start, v, 2, n - 1);
      float[] d = v.clone();
      assertEquals(0, ops.softmax(n, v, 1), "log-normaliser of a row whose other terms vanish");
      assertEquals(1f, v[1], "the maximum's probability");
      for (int i = 2; i <= n; i++) {
        requireWithinOneUlp("softmax term", d[i], v[i]);
      }
      start += n - 1;
    }
    int row = 0;
    for (int bits = Float.floatToIntBits(-0f); bits <= Float.floatToIntBits(-20f); bits += 49999) {
      float d = Float.intBitsToFloat(bits);
      int n = Math.max(2, LENGTHS[row++ % LENGTHS.length]);
      float[] v = new float[n];
      Arrays.fill(v, Float.NEGATIVE_INFINITY);
      v[0] = 0;
      v[n - 1] = d;
      double logZ = ops.softmax(n, v, 0);
      float term = (float) Math.expm1(logZ);
      requireWithinOneUlp("softmax term through the log-normaliser", d, term);
      double exactTerm = StrictMath.exp(d);
      double p = exactTerm / (1 + exactTerm);
      assertEquals(p, v[n - 1], Agreement.floatSoftmax(p), "probability of e^" + d);
      assertEquals(1 - p, v[0], Agreement.floatSoftmax(1 - p), "the maximum's probability");
    }
  }

  /**
   * Random rows of the test lengths at scales up to the float exponential's range and with ±1e30
   * scores, against the exact softmax (double exponentials of the float differences): the
   * log-normaliser and every probability within the contract's bounds; then a NaN, a +Inf, and
   * every score -Inf, each last so that it sits in the tail.
   */
  @ParameterizedTest
  @MethodSource("org.largecat.kernel.BackendsUnderTest#all")
  void softmaxRowsWithinContract(Kernels k) {
    VectorOps ops = k.vectorOps();
    SplittableRandom random = new SplittableRandom(26);
    for (int n : LENGTHS) {
      for (float scale : new float[] {1, 30, 120, 1e30f}) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
          v[i] = (float) (scale * (2 * random.nextDouble() - 1));
        }
        float max = Float.NEGATIVE_INFINITY;
        for (float x : v) {
          max = Math.max(max, x);
        }
        double[] exact = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
          exact[i] = StrictMath.exp(v[i] - max); // the float difference, as the contract forms it
          sum += exact[i];
        }
        double logZ = max + Math.log(sum);
        assertEquals(
            logZ, ops.softmax(n, v, 0), Agreement.logOfFloatExpSum(n, logZ), "log Z, n = " + n);
        for (int i = 0; i < n; i++) {
          double p = exact[i] / sum;
          assertEquals(p, v[i], Agreement.floatSoftmax(p), "probability " + i + ", n = " + n);
        }
      }
      for (float special : new float[] {Float.NaN, Float.POSITIVE_INFINITY}) {
        float[] v = new float[n];
        v[n - 1] = special;
        double logZ = ops.softmax(n, v, 0);
        assertEquals(special, logZ, "log Z with " + special + " last, n = " + n);
        for (float p : v) {
          assertTrue(Float.isNaN(p), "probabilities with " + special + " last, n = " + n);
        }
      }
      float[] v = new float[n];
      Arrays.fill(v, Float.NEGATIVE_INFINITY);
      assertEquals(Double.NEGATIVE_INFINITY, ops.softmax(n, v, 0), "every score -Inf, n = " + n);
    }
  }

  /** A growable float array. */
  private static final class FloatList {
    private float[] values = new float[1024];
    private int size;

    void add(float x) {
      if (size == values.length) {
        values = Arrays.copyOf(values, 2 * size);
      }
      values[size++] = x;
    }

    float[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
