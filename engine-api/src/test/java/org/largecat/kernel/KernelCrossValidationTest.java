package org.largecat.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every kernel of every available backend against the scalar reference, through check mode
 * (which throws {@link KernelDisagreementException} beyond the bounds of {@link Agreement}):
 * lengths by loop path, offsets, seeded random inputs and adversarial values. A new backend is
 * covered by being on the class path of a module that runs this suite.
 */
class KernelCrossValidationTest {

  static Stream<Named<Kernels>> checked() {
    return BackendsUnderTest.all()
        .map(n -> Named.of(n.getName(), Kernels.select(Kernels.catalog(), n.getName(), true)));
  }

  @ParameterizedTest
  @MethodSource("checked")
  void dotAxpyScale(Kernels k) {
    VectorOps ops = k.vectorOps();
    SplittableRandom random = new SplittableRandom(1);
    for (int n : TestInputs.LENGTHS) {
      for (int off : TestInputs.OFFSETS) {
        for (boolean adversarial : new boolean[] {false, true}) {
          float[] xf = TestInputs.uniformFloats(random, n);
          float[] yf = TestInputs.uniformFloats(random, n);
          double[] xd = TestInputs.uniform(random, n, 1e3);
          double[] yd = TestInputs.uniform(random, n, 1e3);
          if (adversarial) {
            TestInputs.sprinkle(random, xf);
            TestInputs.sprinkle(random, xd);
          }
          float[] xfo = TestInputs.atOffset(xf, off);
          float[] yfo = TestInputs.atOffset(yf, 0);
          double[] xdo = TestInputs.atOffset(xd, off);
          double[] ydo = TestInputs.atOffset(yd, 1);
          ops.dot(n, xfo, off, yfo, 0);
          ops.dot(n, xdo, off, ydo, 1);
          ops.axpy(n, 0.75f, xfo, off, yfo, 0);
          ops.axpy(n, -1.5e-3, xdo, off, ydo, 1);
          ops.scale(n, -3.25f, yfo, 0);
          ops.scale(n, 1e-300, ydo, 1);
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("checked")
  void reductions(Kernels k) {
    VectorOps ops = k.vectorOps();
    SplittableRandom random = new SplittableRandom(2);
    for (int n : TestInputs.LENGTHS) {
      for (int off : TestInputs.OFFSETS) {
        for (double scale : new double[] {1, 30, 1e3}) {
          double[] v = TestInputs.atOffset(TestInputs.uniform(random, n, scale), off);
          ops.logSumExp(n, v, off);
          ops.max(n, v, off);
          ops.sumExp(n, v, off, ops.max(n, v, off));
          TestInputs.sprinkle(random, v);
          ops.logSumExp(n, v, off);
          ops.max(n, v, off);
        }
      }
    }
    for (int n : TestInputs.LENGTHS) {
      for (int off : TestInputs.OFFSETS) {
        for (float scale : new float[] {1, 30, 120}) {
          float[] v = TestInputs.atOffset(TestInputs.uniformFloats(random, n), off);
          for (int i = 0; i < v.length; i++) {
            v[i] *= scale;
          }
          ops.sumExp(n, v, off, 0f);
          ops.sumExp(n, v, off, (float) ops.max(n, toDoubles(v), off));
          ops.exp(n, v, off, new float[n + 1], 1);
          TestInputs.sprinkle(random, v);
          ops.sumExp(n, v, off, 1.5f);
          ops.exp(n, v, off, v, off); // in place
        }
      }
    }
    for (float special : TestInputs.ADVERSARIAL_FLOATS) {
      float[] f = {1, special, -2, -special};
      ops.exp(4, f, 0, new float[4], 0);
      ops.sumExp(4, f, 0, 0.5f);
    }
    for (double special : TestInputs.ADVERSARIAL_DOUBLES) {
      double[] v = {1, special, -2};
      ops.logSumExp(3, v, 0);
      ops.sumExp(3, v, 0, 1);
      ops.max(3, v, 0);
    }
    double[] allMinusInfinity = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
    assertEquals(Double.NEGATIVE_INFINITY, ops.logSumExp(2, allMinusInfinity, 0));
    assertEquals(Double.NEGATIVE_INFINITY, ops.logSumExp(0, allMinusInfinity, 0));
    assertEquals(1000 + Math.log(2), ops.logSumExp(2, new double[] {1000, 1000}, 0), 1e-12);
  }

  /**
   * The softmax of rows by loop path at every scale up to the float exponential's range, then with
   * ±Inf, NaN, huge and subnormal scores, against the reference (check mode compares every
   * probability), and a few rows whose answer is known in closed form.
   */
  @ParameterizedTest
  @MethodSource("checked")
  void softmax(Kernels k) {
    VectorOps ops = k.vectorOps();
    SplittableRandom random = new SplittableRandom(12);
    for (int n : TestInputs.LENGTHS) {
      if (n == 0) {
        continue;
      }
      for (int off : TestInputs.OFFSETS) {
        for (float scale : new float[] {1, 30, 120, 1e30f}) {
          float[] v = TestInputs.atOffset(TestInputs.uniformFloats(random, n), off);
          for (int i = 0; i < v.length; i++) {
            v[i] *= scale;
          }
          float[] adversarial = v.clone();
          double max = Double.NEGATIVE_INFINITY;
          for (int i = 0; i < n; i++) {
            max = Math.max(max, v[off + i]);
          }
          double exact = 0;
          for (int i = 0; i < n; i++) {
            exact += Math.exp(v[off + i] - max);
          }
          exact = max + Math.log(exact);
          double logZ = ops.softmax(n, v, off);
          assertEquals(exact, logZ, 1e-6 * Math.max(1, Math.abs(exact)), "log Z, n = " + n);
          double total = 0;
          for (int i = 0; i < n; i++) {
            total += v[off + i];
          }
          assertEquals(1, total, (n + 2) * 0x1p-23, "sum of the probabilities, n = " + n);
          TestInputs.sprinkle(random, adversarial);
          ops.softmax(n, adversarial, off);
        }
      }
    }
    for (float special : TestInputs.ADVERSARIAL_FLOATS) {
      float[] row = {1, special, -2, -special, 0.5f};
      ops.softmax(5, row, 0);
    }
    float[] known = {0, (float) Math.log(3)};
    assertEquals(Math.log(4), ops.softmax(2, known, 0), 1e-7);
    assertEquals(0.25f, known[0], 0x1p-24 * 4);
    assertEquals(0.75f, known[1], 0x1p-24 * 4);
    float[] subnormalTail = {0, -100, -104, Float.NEGATIVE_INFINITY};
    assertEquals(0, ops.softmax(4, subnormalTail, 0), 1e-15);
    assertEquals((float) Math.exp(-100), subnormalTail[1], 0x1p-149f);
    assertEquals(0f, subnormalTail[3]);
    float[] allMinusInfinity = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
    assertEquals(Double.NEGATIVE_INFINITY, ops.softmax(2, allMinusInfinity, 0));
    assertTrue(Float.isNaN(allMinusInfinity[0]) && Float.isNaN(allMinusInfinity[1]));
    float[] plusInfinity = {1, Float.POSITIVE_INFINITY};
    assertEquals(Double.POSITIVE_INFINITY, ops.softmax(2, plusInfinity, 0));
    assertTrue(Float.isNaN(plusInfinity[0]));
    assertTrue(Double.isNaN(ops.softmax(2, new float[] {1, Float.NaN}, 0)));
  }

  private static double[] toDoubles(float[] v) {
    double[] d = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      d[i] = v[i];
    }
    return d;
  }

  /**
   * The factorized model's step at embedding widths r = 64, 100, 128, 256: h from three input rows,
   * the scores of 101 output rows against h, ∂h from them, and their update along h; then again
   * with adversarial values in both tables, which reach h and the scores too.
   */
  @ParameterizedTest
  @MethodSource("checked")
  void embeddingStepAtModelWidths(Kernels k) {
    VectorOps ops = k.vectorOps();
    SplittableRandom random = new SplittableRandom(12);
    int classes = 500;
    for (int r : new int[] {64, 100, 128, 256}) {
      for (boolean adversarial : new boolean[] {false, true}) {
        float[] inputs = TestInputs.uniformFloats(random, classes * r);
        float[] outputs = TestInputs.uniformFloats(random, classes * r);
        if (adversarial) {
          TestInputs.sprinkle(random, inputs);
          TestInputs.sprinkle(random, outputs);
        }
        int[] features = random.ints(0, classes).distinct().limit(3).sorted().toArray();
        float[] values = TestInputs.uniformFloats(random, 3);
        int[] rows = random.ints(101, 0, classes).toArray();
        float[] coef = TestInputs.uniformFloats(random, 101);
        float[] h = new float[r + 1];
        ops.gatherAxpy(inputs, classes, r, features, 0, 3, values, 0, h, 1);
        ops.gatherDot(outputs, classes, r, rows, 0, 101, h, 1, new double[101], 0);
        ops.gatherAxpy(outputs, classes, r, rows, 0, 101, coef, 0, new float[r], 0);
        ops.scatterAxpy(outputs, classes, r, rows, 0, 101, coef, 0, h, 1);
      }
    }
  }

  /**
   * The row step, plain and adaptive, at every loop path's width and the model widths, on random
   * rows that repeat (so a row's second step reads its first one's result), with the prior's pull
   * and without, and with adversarial values in the table, its s and the gradients; check mode
   * requires the reference's bits in w, s and the cleared gradients.
   */
  @ParameterizedTest
  @MethodSource("checked")
  void rowStepPlainAndAdaptive(Kernels k) {
    VectorOps ops = k.vectorOps();
    SplittableRandom random = new SplittableRandom(13);
    int classes = 30;
    int[] widths = {1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 100, 128, 129, 256};
    for (int d : widths) {
      for (boolean adversarial : new boolean[] {false, true}) {
        float[] w = TestInputs.uniformFloats(random, classes * d);
        float[] s = TestInputs.uniformFloats(random, classes * d);
        for (int i = 0; i < s.length; i++) {
          s[i] = Math.abs(s[i]);
        }
        int count = 12;
        float[] g = TestInputs.atOffset(TestInputs.uniformFloats(random, count * d), 2);
        if (adversarial) {
          TestInputs.sprinkle(random, w);
          TestInputs.sprinkle(random, s);
          TestInputs.sprinkle(random, g);
        }
        int[] rows = random.ints(count + 1, 0, classes).toArray();
        rows[count] = rows[1]; // a repeat even where the draw has none
        float[] fresh = new float[count + 1];
        float[] keep = new float[count + 1];
        for (int i = 0; i < fresh.length; i++) {
          fresh[i] = i % 4 == 0 ? 1 : 0.1f;
          keep[i] = i % 4 == 0 ? 0 : (float) Math.pow(0.9, 1 + random.nextInt(80));
        }
        float precision = adversarial ? 0 : 1e-3f;
        ops.rowStep(w, s, classes, d, rows, 1, count, g, 2, fresh, keep, 1, 0.05f, 30f, precision);
        g = TestInputs.atOffset(TestInputs.uniformFloats(random, count * d), 1);
        ops.rowStep(w, null, classes, d, rows, 1, count, g, 1, null, null, 0, 0.5f, 1f, precision);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("checked")
  void gatherAndScatterOverRowSubsets(Kernels k) {
    VectorOps ops = k.vectorOps();
    SplittableRandom random = new SplittableRandom(3);
    int classes = 40;
    for (int d : TestInputs.LENGTHS) {
      if (d == 0) {
        continue;
      }
      float[] w = TestInputs.uniformFloats(random, classes * d);
      float[] x = TestInputs.atOffset(TestInputs.uniformFloats(random, d), 2);
      for (int count : new int[] {0, 1, 5, 17}) {
        int[] rows = random.ints(count + 1, 0, classes).toArray(); // may repeat
        double[] out = new double[count + 3];
        float[] coef = TestInputs.uniformFloats(random, count + 1);
        ops.gatherDot(w, classes, d, rows, 1, count, x, 2, out, 3 - (count > 0 ? 1 : 0));
        ops.scatterAxpy(w, classes, d, rows, 1, count, coef, 1, x, 2);
        ops.gatherAxpy(
            w,
            classes,
            d,
            rows,
            1,
            count,
            coef,
            1,
            TestInputs.atOffset(TestInputs.uniformFloats(random, d), 1),
            1);
        int[] indices =
            random
                .ints(0, d)
                .distinct()
                .limit(Math.min(d, 2 + random.nextInt(40)))
                .sorted()
                .toArray();
        int nnz = indices.length - 1; // from offset 1
        float[] values = TestInputs.uniformFloats(random, nnz + 1);
        ops.gatherDotSparse(w, classes, d, rows, 1, count, indices, values, 1, nnz, out, 0);
        ops.scatterAxpySparse(w, classes, d, rows, 1, count, coef, 0, indices, values, 1, nnz);
      }
      float[] bad = TestInputs.uniformFloats(random, classes * d);
      TestInputs.sprinkle(random, bad);
      ops.gatherDot(bad, classes, d, new int[] {0, 7, 39}, 0, 3, x, 2, new double[3], 0);
    }
  }

  @ParameterizedTest
  @MethodSource("checked")
  void specialFunctions(Kernels k) {
    SpecialFunctions special = k.specialFunctions();
    SplittableRandom random = new SplittableRandom(4);
    for (ElementwiseFunction f : ElementwiseFunction.values()) {
      double[] inputs =
          Stream.of(
                  TestInputs.ADVERSARIAL_DOUBLES,
                  TestInputs.uniform(random, 500, 50),
                  TestInputs.logUniform(random, 500),
                  TestInputs.uniform(random, 200, 1e6),
                  nearBranchPoint())
              .flatMapToDouble(Arrays::stream)
              .toArray();
      for (int n : TestInputs.LENGTHS) {
        for (int off : TestInputs.OFFSETS) {
          int start = random.nextInt(inputs.length - n);
          double[] x = TestInputs.atOffset(Arrays.copyOfRange(inputs, start, start + n), off);
          special.apply(f, n, x, off, new double[n + 1], 1);
          special.apply(f, n, x, off, x, off); // in place
        }
      }
      special.apply(f, inputs.length, inputs, 0, new double[inputs.length], 0);
    }
  }

  /**
   * Pairs of functions in one pass: every pair of the normal family (those a backend may fuse, same
   * side or not), each normal function with one outside it, and one pair outside it; g in place
   * too.
   */
  @ParameterizedTest
  @MethodSource("checked")
  void specialFunctionPairs(Kernels k) {
    SpecialFunctions special = k.specialFunctions();
    SplittableRandom random = new SplittableRandom(5);
    double[] inputs =
        Stream.of(
                TestInputs.ADVERSARIAL_DOUBLES,
                TestInputs.uniform(random, 500, 50),
                TestInputs.logUniform(random, 500),
                TestInputs.uniform(random, 200, 1e6))
            .flatMapToDouble(Arrays::stream)
            .toArray();
    List<ElementwiseFunction> normal =
        Arrays.stream(ElementwiseFunction.values())
            .filter(f -> f.name().startsWith("NORMAL_") || f.name().startsWith("TRUNCATED_NORMAL_"))
            .toList();
    List<ElementwiseFunction[]> pairs = new ArrayList<>();
    for (ElementwiseFunction f : normal) {
      for (ElementwiseFunction g : normal) {
        pairs.add(new ElementwiseFunction[] {f, g});
      }
      pairs.add(new ElementwiseFunction[] {f, ElementwiseFunction.LOG_SIGMOID});
    }
    pairs.add(new ElementwiseFunction[] {ElementwiseFunction.EXP, ElementwiseFunction.LAMBERT_W0});
    for (ElementwiseFunction[] pair : pairs) {
      for (int n : TestInputs.LENGTHS) {
        int off = n % 2 == 0 ? 0 : 3;
        int start = random.nextInt(inputs.length - n);
        double[] x = TestInputs.atOffset(Arrays.copyOfRange(inputs, start, start + n), off);
        special.applyPair(pair[0], pair[1], n, x, off, new double[n + 1], 1, new double[n + 2], 2);
        special.applyPair(pair[0], pair[1], n, x, off, new double[n], 0, x, off); // g in place
      }
      special.applyPair(
          pair[0],
          pair[1],
          inputs.length,
          inputs,
          0,
          new double[inputs.length],
          0,
          new double[inputs.length],
          0);
      double[] inPlace =
          inputs.clone(); // longer than a block of the simd normal kernel, g in place
      special.applyPair(
          pair[0], pair[1], inPlace.length, inPlace, 0, new double[inPlace.length], 0, inPlace, 0);
    }
  }

  /**
   * Sums of log Phi and log(1 - Phi), which a backend may form its own way, with each normal
   * function (or none, or one outside the family) written alongside, g in place too; and a sum of a
   * function outside the family. Inputs by where the terms are: all in the right tail (where the
   * simd sum multiplies 1 - Q), far out in it (terms down to the underflow of Q), near 0 (Q near
   * 1/2, the most logarithms), across both tails, and each adversarial value repeated (so that one
   * NaN does not decide every sum); lengths by loop path, and longer than a block.
   */
  @ParameterizedTest
  @MethodSource("checked")
  void specialFunctionSums(Kernels k) {
    SpecialFunctions special = k.specialFunctions();
    SplittableRandom random = new SplittableRandom(6);
    List<ElementwiseFunction> companions =
        new ArrayList<>(
            Arrays.stream(ElementwiseFunction.values())
                .filter(
                    f -> f.name().startsWith("NORMAL_") || f.name().startsWith("TRUNCATED_NORMAL_"))
                .toList());
    companions.add(ElementwiseFunction.LOG_SIGMOID);
    companions.add(null);
    List<double[]> inputs = new ArrayList<>();
    for (double[] range : new double[][] {{0, 8}, {8, 38}, {0, 0.05}, {-30, 30}}) {
      for (double sign : new double[] {1, -1}) {
        double[] x = new double[3000];
        for (int i = 0; i < x.length; i++) {
          x[i] = sign * (range[0] + (range[1] - range[0]) * random.nextDouble());
        }
        inputs.add(x);
      }
    }
    for (double value : TestInputs.ADVERSARIAL_DOUBLES) {
      double[] x = new double[17];
      Arrays.fill(x, value);
      inputs.add(x);
    }
    for (ElementwiseFunction f :
        List.of(
            ElementwiseFunction.NORMAL_LOG_CDF,
            ElementwiseFunction.NORMAL_LOG_SURVIVAL,
            ElementwiseFunction.LOG_SIGMOID)) {
      for (ElementwiseFunction g : companions) {
        for (double[] x : inputs) {
          for (int n : TestInputs.LENGTHS) {
            if (n <= x.length) {
              int off = n % 2 == 0 ? 0 : 3;
              double[] xo = TestInputs.atOffset(Arrays.copyOf(x, n), off);
              special.sumAndApply(f, g, n, xo, off, new double[n + 2], 2);
              special.sumAndApply(f, g, n, xo, off, xo, off); // g in place
            }
          }
          special.sumAndApply(f, g, x.length, x.clone(), 0, new double[x.length], 0);
        }
      }
    }
  }

  /** Doubles at and just above -1/e, where W0 has its branch point. */
  private static double[] nearBranchPoint() {
    double[] v = new double[20];
    double x = -0.36787944117144233;
    for (int i = 0; i < v.length; i++) {
      v[i] = x;
      x = Math.nextUp(x);
    }
    return v;
  }

  @ParameterizedTest
  @MethodSource("checked")
  void implicitUpdates(Kernels k) {
    ImplicitUpdates updates = k.implicitUpdates();
    SplittableRandom random = new SplittableRandom(5);
    for (double eta : new double[] {1e-6, 0.01, 1, 100}) {
      for (long classes : new long[] {2, 10, 10_000, 1_000_000_000L}) {
        for (long data : new long[] {1, 1000, 1_000_000_000_000L}) {
          int n = 37;
          double[] z = TestInputs.uniform(random, n, 50);
          double[] uOld = TestInputs.uniform(random, n, 20);
          double[] xNorm2 = new double[n];
          for (int i = 0; i < n; i++) {
            xNorm2[i] = i == 0 ? 0 : Math.pow(10, -3 + 6 * random.nextDouble());
          }
          z[1] = 1e4;
          z[2] = -1e4;
          z[3] = Double.NaN;
          uOld[4] = Double.NaN;
          updates.softmaxSingleClass(
              n,
              z,
              0,
              uOld,
              0,
              xNorm2,
              0,
              eta,
              data,
              classes,
              new double[n + 2],
              2,
              new double[n],
              0);
        }
      }
    }
  }

  /** Each product in double and again in float storage, on the same values rounded to float. */
  @ParameterizedTest
  @MethodSource("checked")
  void matrixProducts(Kernels k) {
    MatrixOps ops = k.matrixOps();
    SplittableRandom random = new SplittableRandom(6);
    int[] dims = {0, 1, 3, 8, 17};
    for (int m : dims) {
      for (int n : dims) {
        for (int inner : dims) {
          for (boolean ta : new boolean[] {false, true}) {
            for (boolean tb : new boolean[] {false, true}) {
              gemmBothPrecisions(ops, random, ta, tb, m, n, inner);
            }
          }
          int ld = Math.max(n, inner) + 1;
          double[] a = TestInputs.uniform(random, 1 + Math.max(m, inner) * ld + ld * 17, 3);
          double[] y = TestInputs.uniform(random, 40, 1);
          double[] xn = TestInputs.uniform(random, n + 1, 1);
          double[] xm = TestInputs.uniform(random, m + 1, 1);
          ops.gemv(false, m, n, 0.5, a, 1, ld, xn, 1, 2, y, 1);
          ops.gemv(false, m, n, 0.5f, floats(a), 1, ld, floats(xn), 1, 2f, floats(y), 1);
          ops.gemv(true, m, n, 0.5, a, 1, ld, xm, 1, 0, y, 2);
          ops.gemv(true, m, n, 0.5f, floats(a), 1, ld, floats(xm), 1, 0f, floats(y), 2);
          double[] c = TestInputs.uniform(random, 1 + m * (m + 2), 1);
          ops.syrk(false, m, inner, 0.25, a, 1, ld, 1, c, 1, m + 2);
          ops.syrk(false, m, inner, 0.25f, floats(a), 1, ld, 1f, floats(c), 1, m + 2);
          int ldt = m + 1;
          double[] at = TestInputs.uniform(random, 1 + inner * ldt, 3);
          ops.syrk(true, m, inner, 1, at, 1, ldt, 0, c, 1, m + 2);
          ops.syrk(true, m, inner, 1f, floats(at), 1, ldt, 0f, floats(c), 1, m + 2);
        }
      }
    }
  }

  /**
   * Sizes past the blocking of optimised libraries (panels of tens to hundreds), with ragged edges.
   */
  @ParameterizedTest
  @MethodSource("checked")
  void largeMatrixProducts(Kernels k) {
    MatrixOps ops = k.matrixOps();
    SplittableRandom random = new SplittableRandom(8);
    for (boolean ta : new boolean[] {false, true}) {
      for (boolean tb : new boolean[] {false, true}) {
        gemmBothPrecisions(ops, random, ta, tb, 131, 97, 263);
        // Few rows by many columns (a row chunk's utilities over K categories), inner past one
        // panel.
        gemmBothPrecisions(ops, random, ta, tb, 6, 1000, 150);
      }
    }
    for (boolean trans : new boolean[] {false, true}) {
      int n = 150;
      int inner = 301;
      int lda = (trans ? n : inner) + 5;
      double[] a = TestInputs.uniform(random, (trans ? inner : n) * lda, 1);
      double[] c = TestInputs.uniform(random, n * (n + 1), 1);
      ops.syrk(trans, n, inner, -1, a, 0, lda, 0.5, c, 0, n + 1);
      ops.syrk(trans, n, inner, -1f, floats(a), 0, lda, 0.5f, floats(c), 0, n + 1);
      double[] x = TestInputs.uniform(random, n, 1);
      double[] y = TestInputs.uniform(random, inner, 1);
      ops.gemv(!trans, trans ? inner : n, trans ? n : inner, 2, a, 0, lda, x, 0, -1, y, 0);
      ops.gemv(
          !trans,
          trans ? inner : n,
          trans ? n : inner,
          2f,
          floats(a),
          0,
          lda,
          floats(x),
          0,
          -1f,
          floats(y),
          0);
    }
  }

  /**
   * Padded rows (ld > columns) in arrays that end at the last element of the last row: the contract
   * asks for no more, though a library's own checks may (netlib's want the last row's padding too).
   */
  @ParameterizedTest
  @MethodSource("checked")
  void productsAndFactorsOfArraysThatEndAtTheirLastElement(Kernels k) {
    MatrixOps ops = k.matrixOps();
    SplittableRandom random = new SplittableRandom(9);
    int n = 20;
    int inner = 30;
    int ld = 35;
    double[] a = TestInputs.uniform(random, (n - 1) * ld + inner, 1); // n x inner
    double[] c = TestInputs.uniform(random, (n - 1) * ld + n, 1); // n x n
    ops.gemm(false, true, n, n, inner, 1, a, 0, ld, a, 0, ld, 0.5, c, 0, ld);
    ops.gemm(
        false, true, n, n, inner, 1f, floats(a), 0, ld, floats(a), 0, ld, 0.5f, floats(c), 0, ld);
    ops.gemv(
        false, n, inner, 1, a, 0, ld, TestInputs.uniform(random, inner, 1), 0, 1, new double[n], 0);
    ops.gemv(
        true,
        n,
        inner,
        1f,
        floats(a),
        0,
        ld,
        floats(TestInputs.uniform(random, n, 1)),
        0,
        1f,
        new float[inner],
        0);
    ops.syrk(false, n, inner, 1, a, 0, ld, 0, c, 0, ld);
    ops.syrk(false, n, inner, 1f, floats(a), 0, ld, 0f, floats(c), 0, ld);
    for (int i = 0; i < n; i++) {
      c[i * ld + i] += inner;
    }
    ops.choleskyFactor(n, c, 0, ld);
    ops.choleskySolve(n, 3, c, 0, ld, TestInputs.uniform(random, (n - 1) * 5 + 3, 1), 0, 5);
  }

  /**
   * C = alpha op(A) op(B) + beta C with offsets and padded rows, then with beta = 0 over a
   * NaN-filled C.
   */
  private static void gemmBothPrecisions(
      MatrixOps ops, SplittableRandom random, boolean ta, boolean tb, int m, int n, int inner) {
    int lda = (ta ? m : inner) + 2;
    int ldb = (tb ? inner : n) + 1;
    int ldc = n + 3;
    double[] a = TestInputs.uniform(random, 1 + (ta ? inner : m) * lda, 2);
    double[] b = TestInputs.uniform(random, 2 + (tb ? n : inner) * ldb, 2);
    double[] c = TestInputs.uniform(random, 3 + m * ldc, 2);
    float[] af = floats(a);
    float[] bf = floats(b);
    ops.gemm(ta, tb, m, n, inner, 1.5, a, 1, lda, b, 2, ldb, -0.5, c, 3, ldc);
    ops.gemm(ta, tb, m, n, inner, 1.5f, af, 1, lda, bf, 2, ldb, -0.5f, floats(c), 3, ldc);
    Arrays.fill(c, Double.NaN); // beta = 0 must not read C
    ops.gemm(ta, tb, m, n, inner, -2, a, 1, lda, b, 2, ldb, 0, c, 3, ldc);
    ops.gemm(ta, tb, m, n, inner, -2f, af, 1, lda, bf, 2, ldb, 0f, floats(c), 3, ldc);
  }

  private static float[] floats(double[] v) {
    float[] r = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = (float) v[i];
    }
    return r;
  }

  @ParameterizedTest
  @MethodSource("checked")
  void choleskyFactorAndSolve(Kernels k) {
    MatrixOps ops = k.matrixOps();
    SplittableRandom random = new SplittableRandom(7);
    for (int n : new int[] {0, 1, 2, 5, 16, 33}) {
      int ld = n + 2;
      double[] b = TestInputs.uniform(random, n * n, 1);
      double[] a = new double[1 + n * ld];
      // A = B B^T + n I is symmetric positive definite; only its lower triangle is stored.
      ops.syrk(false, n, n, 1, b, 0, Math.max(1, n), 0, a, 1, ld);
      for (int i = 0; i < n; i++) {
        a[1 + i * ld + i] += n;
      }
      ops.choleskyFactor(n, a, 1, ld);
      double[] rhs = TestInputs.uniform(random, 2 + n * 4, 5);
      ops.choleskySolve(n, 3, a, 1, ld, rhs, 2, 4);
      double[] wide =
          TestInputs.uniform(
              random, 1 + n * 21, 5); // 19 right-hand sides: whole vectors and a tail
      ops.choleskySolve(n, 19, a, 1, ld, wide, 1, 21);
    }
    double[] indefinite = {1, 0, 0, 2, -5, 0, 0, 0, 1};
    NotPositiveDefiniteException e =
        assertThrows(
            NotPositiveDefiniteException.class, () -> ops.choleskyFactor(3, indefinite, 0, 3));
    assertEquals(2, e.order());
  }
}
