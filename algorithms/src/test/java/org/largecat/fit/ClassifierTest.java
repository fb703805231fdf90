package org.largecat.fit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.Features;
import org.largecat.data.SparseFeatures;
import org.largecat.eval.ClassRanks;
import org.largecat.eval.Evaluation;
import org.largecat.eval.NonFiniteScoreException;
import org.largecat.eval.Predictor;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;

/**
 * The library's scoring face: the faults a user found (a reused request buffer scored as the first
 * request, shapes off by one accepted or failing inside gemm), one instance shared by threads, the
 * dense, sparse, single and batch forms against each other and against a double-precision reference
 * written here, and the model's save and load through paths and streams.
 */
class ClassifierTest {
  private static final int CLASSES = 41;
  private static final int COLUMNS = 13;
  private static final int RANK = 6;
  private static final double UNIT_ROUNDOFF = 0x1p-24;

  @TempDir Path dir;

  // ---------------------------------------------------------------- what the user found

  /**
   * A request buffer wrapped once and refilled per request: each request gets its own scores (the
   * old Predictor returned the first request's, keyed by the wrapper's identity).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"linear", "factorized"})
  void aReusedRequestBufferIsScoredAfresh(String kind) {
    SplittableRandom random = new SplittableRandom(3);
    ScoreModel model = model(kind, Link.SOFTMAX, random);
    float[] buffer = new float[COLUMNS];
    DenseFeatures wrapped = new DenseFeatures(1, COLUMNS, buffer);
    Predictor predictor = new Predictor(model, Kernels.get());
    Classifier classifier = Classifier.of(model);
    double[] psi = new double[CLASSES];
    int differentFromFirst = 0;
    int firstBest = -1;
    for (int request = 0; request < 40; request++) {
      float[] x = gaussian(random, COLUMNS, 2);
      System.arraycopy(x, 0, buffer, 0, COLUMNS);
      double[] truth = reference(model, x);
      predictor.utilities(wrapped, 0, psi);
      for (int k = 0; k < CLASSES; k++) {
        assertEquals(truth[k], psi[k], 1e-4 * (1 + Math.abs(truth[k])), "request " + request);
      }
      int best = argmax(truth);
      assertEquals(best, classifier.predict(buffer), "request " + request);
      firstBest = request == 0 ? best : firstBest;
      differentFromFirst += best != firstBest ? 1 : 0;
    }
    assertTrue(differentFromFirst > 10, "the requests must differ for the test to mean anything");
  }

  /** D + 1, D - 1 columns and K - 1 utilities: refused up front, naming K, D and the fix. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"linear", "factorized"})
  void featuresAndOutputsOfTheWrongShapeAreRefused(String kind) {
    ScoreModel model = model(kind, Link.SOFTMAX, new SplittableRandom(4));
    Predictor predictor = new Predictor(model, Kernels.get());
    for (int columns : new int[] {COLUMNS + 1, COLUMNS - 1}) {
      Features dense = new DenseFeatures(3, columns, new float[3 * columns]);
      Features sparse =
          new SparseFeatures(1, columns, new int[] {0, 1}, new int[] {0}, new float[] {1});
      for (Features x : List.of(dense, sparse)) {
        assertShapeError(
            () -> predictor.utilities(x, 0, new double[CLASSES]), "columns", "D = " + COLUMNS);
        assertShapeError(
            () -> predictor.forEachRow(x, 0, 1, 1, (row, psi) -> {}), "columns", "D = " + COLUMNS);
      }
    }
    Features fits = new DenseFeatures(2, COLUMNS, new float[2 * COLUMNS]);
    assertShapeError(() -> predictor.utilities(fits, 0, new double[CLASSES - 1]), "psi", "K = ");
    assertShapeError(
        () -> predictor.logProbabilities(new double[CLASSES], new double[CLASSES - 1]), "out", "");
    assertShapeError(() -> predictor.logProbability(new double[CLASSES - 1], 0), "psi", "");

    Classifier c = Classifier.of(model);
    float[] x = new float[COLUMNS];
    assertShapeError(() -> c.predict(new float[COLUMNS + 1]), "x has 14", "D = 13");
    assertShapeError(() -> c.predict(new float[COLUMNS - 1]), "x has 12", "D = 13");
    assertShapeError(() -> c.probabilities(x, new float[CLASSES - 1]), "out has 40", "K = 41");
    assertShapeError(() -> c.top(x, 0), "k = 0", "[1, K = 41]");
    assertShapeError(() -> c.top(x, CLASSES + 1), "k = 42", "[1, K = 41]");
    assertShapeError(() -> c.logProbability(x, CLASSES), "label 41", "[0, K = 41)");
    assertShapeError(
        () -> c.predict(new int[] {0, COLUMNS}, new float[] {1, 1}), "= 13", "[0, D = 13)");
    assertShapeError(() -> c.predict(new int[] {-1}, new float[] {1}), "= -1", "[0, D = 13)");
    assertShapeError(
        () -> c.predict(new int[] {4, 2}, new float[] {1, 1}), "follows", "increasing");
    assertShapeError(() -> c.predict(new int[] {2, 2}, new float[] {1, 1}), "follows", "once");
    assertShapeError(() -> c.predict(new int[] {1, 2}, new float[] {1}), "indices has 2", "one");
    assertShapeError(
        () -> c.predict(new float[3 * COLUMNS + 1], 3, new int[3]), "rowMajor has 40", "rows × D");
    assertShapeError(() -> c.predict(new float[3 * COLUMNS], 3, new int[2]), "out has 2", "rows");
    assertShapeError(
        () -> c.probabilities(new float[3 * COLUMNS], 3, new float[3 * CLASSES - 1]),
        "out has 122",
        "rows × K = 123");
    Dataset wide =
        new Dataset(new DenseFeatures(2, COLUMNS + 1, new float[2 * COLUMNS + 2]), new int[2], 5);
    assertShapeError(() -> c.predict(wide, new int[2]), "14 features", "D = 13");
    assertShapeError(() -> c.evaluate(wide, 1), "K = 5", "model's K and D");
  }

  /** NaN or infinite features given as arrays are refused; a NaN weight stops the scoring. */
  @Test
  void nonFiniteFeaturesAndScores() {
    LinearModel model = (LinearModel) model("linear", Link.SOFTMAX, new SplittableRandom(5));
    Classifier c = Classifier.of(model);
    float[] x = new float[COLUMNS];
    x[3] = Float.NaN;
    assertShapeError(() -> c.predict(x), "x[3] is NaN", "finite");
    assertShapeError(
        () -> c.predict(new int[] {2}, new float[] {Float.POSITIVE_INFINITY}),
        "values[0] is Infinity",
        "finite");
    float[] rows = new float[2 * COLUMNS];
    rows[COLUMNS + 1] = Float.NEGATIVE_INFINITY;
    assertShapeError(() -> c.predict(rows, 2, new int[2]), "row 1, feature 1", "finite");
    float[] w = model.weights().clone();
    w[5 * COLUMNS + 2] = Float.NaN;
    Classifier broken =
        Classifier.of(new LinearModel(Link.SOFTMAX, CLASSES, COLUMNS, w, model.biases()));
    float[] ones = new float[COLUMNS];
    Arrays.fill(ones, 1);
    NonFiniteScoreException e =
        assertThrows(NonFiniteScoreException.class, () -> broken.predict(ones));
    assertTrue(e.getMessage().contains("class 5"), e.getMessage());
  }

  // ---------------------------------------------------------------- threads

  /**
   * One instance, four threads, each scoring every example (dense, sparse, top-3, probabilities) in
   * its own order: every answer equals the single thread's.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"linear", "factorized", "probit"})
  void oneInstanceSharedByFourThreadsAgreesWithOneThread(String kind) throws Exception {
    SplittableRandom random = new SplittableRandom(6);
    ScoreModel model =
        kind.equals("probit")
            ? model("linear", Link.PROBIT, random)
            : model(kind, Link.SOFTMAX, random);
    Classifier c = Classifier.of(model);
    int n = 400;
    float[][] xs = new float[n][];
    for (int i = 0; i < n; i++) {
      xs[i] = gaussian(random, COLUMNS, 1.5);
    }
    int[][] alone = answers(c, xs, 0);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<int[][]>> parts = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t * 97;
        parts.add(pool.submit(() -> answers(c, xs, offset)));
      }
      for (Future<int[][]> part : parts) {
        int[][] got = part.get();
        for (int i = 0; i < n; i++) {
          assertArrayEquals(alone[i], got[i], "example " + i);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Per example, in the order starting at {@code offset}: predict, the sparse predict, the top 3,
   * and the bits of the probabilities.
   */
  private static int[][] answers(Classifier c, float[][] xs, int offset) {
    int[][] out = new int[xs.length][];
    float[] p = new float[c.classes()];
    for (int s = 0; s < xs.length; s++) {
      int i = (s + offset) % xs.length;
      int[] indices = nonzeroColumns(xs[i]);
      c.probabilities(xs[i], p);
      int[] row = new int[5 + p.length];
      row[0] = c.predict(xs[i]);
      row[1] = c.predict(indices, valuesAt(xs[i], indices));
      System.arraycopy(c.top(xs[i], 3), 0, row, 2, 3);
      for (int k = 0; k < p.length; k++) {
        row[5 + k] = Float.floatToRawIntBits(p[k]);
      }
      out[i] = row;
    }
    return out;
  }

  // ---------------------------------------------------------------- the forms agree

  /** Dense and sparse forms of the same examples (about half the features 0) agree. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"linear", "factorized", "logistic"})
  void denseAndSparseFormsAgree(String kind) {
    SplittableRandom random = new SplittableRandom(7);
    ScoreModel model =
        kind.equals("logistic")
            ? model("factorized", Link.LOGISTIC, random)
            : model(kind, Link.SOFTMAX, random);
    Classifier c = Classifier.of(model);
    float[] pDense = new float[CLASSES];
    float[] pSparse = new float[CLASSES];
    for (int i = 0; i < 100; i++) {
      float[] x = gaussian(random, COLUMNS, 1.5);
      for (int j = 0; j < COLUMNS; j++) {
        x[j] = random.nextBoolean() ? 0 : x[j];
      }
      int[] indices = nonzeroColumns(x);
      float[] values = valuesAt(x, indices);
      assertEquals(c.predict(x), c.predict(indices, values), "example " + i);
      assertArrayEquals(c.top(x, 5), c.top(indices, values, 5), "example " + i);
      c.probabilities(x, pDense);
      c.probabilities(indices, values, pSparse);
      for (int k = 0; k < CLASSES; k++) {
        assertEquals(pDense[k], pSparse[k], 1e-6 * pDense[k] + 1e-30, "example " + i + ", " + k);
      }
    }
  }

  /**
   * The batch forms (float gemm blocks) against the single-example forms (gather-dots in double):
   * probabilities to float rounding, and the same class wherever the reference's best two are not
   * within that rounding of each other. 300 rows: two full blocks and a partial one.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"linear", "factorized", "probit"})
  void batchAndSingleExampleFormsAgree(String kind) {
    SplittableRandom random = new SplittableRandom(8);
    ScoreModel model =
        kind.equals("probit")
            ? model("factorized", Link.PROBIT, random)
            : model(kind, Link.SOFTMAX, random);
    Classifier c = Classifier.of(model);
    int n = 300;
    float[] rows = gaussian(random, n * COLUMNS, 1.5);
    int[] batch = new int[n];
    c.predict(rows, n, batch);
    float[] pBatch = new float[n * CLASSES];
    c.probabilities(rows, n, pBatch);
    int[] fromData = new int[n];
    c.predict(new Dataset(new DenseFeatures(n, COLUMNS, rows), new int[n], CLASSES), fromData);
    assertArrayEquals(batch, fromData);
    float[] p = new float[CLASSES];
    int decided = 0;
    for (int i = 0; i < n; i++) {
      float[] x = Arrays.copyOfRange(rows, i * COLUMNS, (i + 1) * COLUMNS);
      c.probabilities(x, p);
      double sum = 0;
      for (int k = 0; k < CLASSES; k++) {
        assertEquals(p[k], pBatch[i * CLASSES + k], 1e-4 * p[k] + 1e-30, "row " + i + ", " + k);
        sum += pBatch[i * CLASSES + k];
      }
      assertEquals(1, sum, 1e-3, "row " + i);
      double[] truth = reference(model, x);
      int[] best2 = new int[2];
      ClassRanks.topClasses(truth, best2);
      if (truth[best2[0]] - truth[best2[1]] > 1e-4 * (1 + Math.abs(truth[best2[0]]))) {
        assertEquals(best2[0], batch[i], "row " + i);
        assertEquals(best2[0], c.predict(x), "row " + i);
        decided++;
      }
    }
    assertTrue(decided > n * 9 / 10, decided + " of " + n + " rows had a clear best class");
  }

  /**
   * A factorized model's blocks (H = X V, then H Uᵀ, float gemms) against ψ computed here in
   * double, for dense rows and sparse ones (H by gather-axpy), scalar and the machine's kernels, N
   * not a multiple of the block. Bound: h_c is a float sum of D products and is rounded to float,
   * then ψ_k a float sum of r products u_kc h_c rounded to float: to first order at most (D + r +
   * 2) u Σ_c |u_kc| Σ_j |x_j v_jc|, u = 2^-24 — error that grows with the terms' magnitudes, not
   * with ψ, which cancellation can leave small.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"scalar", "auto"})
  void factorizedBlocksMatchADoubleReference(String backend) {
    SplittableRandom random = new SplittableRandom(9);
    int classes = 300;
    int columns = 57;
    int rank = 23;
    FactorizedModel model =
        new FactorizedModel(
            Link.SOFTMAX,
            classes,
            columns,
            rank,
            gaussian(random, columns * rank, 1),
            gaussian(random, classes * rank, 1),
            doubles(gaussian(random, classes, 1)));
    int n = 301;
    float[] dense = gaussian(random, n * columns, 1);
    for (int i = 0; i < dense.length; i++) {
      dense[i] = random.nextInt(4) == 0 ? dense[i] : 0;
    }
    DenseFeatures x = new DenseFeatures(n, columns, dense);
    Predictor predictor = new Predictor(model, Kernels.of(backend));
    for (Features features : List.of(x, sparse(x))) {
      int[] seen = {0};
      double[] worstRatio = {0};
      predictor.forEachRow(
          features,
          0,
          n,
          1,
          (row, psi) -> {
            seen[0]++;
            for (int k = 0; k < classes; k++) {
              double truth = model.biases()[k];
              double magnitude = 0;
              for (int c = 0; c < rank; c++) {
                double h = 0;
                double hMagnitude = 0;
                for (int j = 0; j < columns; j++) {
                  double term = (double) dense[row * columns + j] * model.inputs()[j * rank + c];
                  h += term;
                  hMagnitude += Math.abs(term);
                }
                truth += model.outputs()[k * rank + c] * h;
                magnitude += Math.abs(model.outputs()[k * rank + c]) * hMagnitude;
              }
              double bound = (columns + rank + 2) * UNIT_ROUNDOFF * magnitude + 1e-300;
              double error = Math.abs(psi[k] - truth);
              worstRatio[0] = Math.max(worstRatio[0], error / bound);
              assertTrue(
                  error <= bound,
                  features.getClass().getSimpleName()
                      + " row "
                      + row
                      + ", class "
                      + k
                      + ": "
                      + psi[k]
                      + " against "
                      + truth
                      + ", bound "
                      + bound);
            }
          });
      assertEquals(n, seen[0]);
      assertTrue(worstRatio[0] > 0, "float rounding must show: the reference is not the same sum");
    }
  }

  // ---------------------------------------------------------------- evaluation and files

  /** evaluate: 1 and 3 threads agree bit for bit and with Evaluation. */
  @Test
  void evaluateIsTheSameForAnyThreadCount() {
    SplittableRandom random = new SplittableRandom(10);
    ScoreModel model = model("factorized", Link.SOFTMAX, random);
    int n = 333;
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      labels[i] = random.nextInt(CLASSES);
    }
    Dataset test =
        new Dataset(
            new DenseFeatures(n, COLUMNS, gaussian(random, n * COLUMNS, 1)), labels, CLASSES);
    Classifier c = Classifier.of(model);
    Evaluation.Result one = c.evaluate(test, 1);
    Evaluation.Result three = c.evaluate(test, 3);
    assertEquals(
        Double.doubleToRawLongBits(one.meanLogLikelihood()),
        Double.doubleToRawLongBits(three.meanLogLikelihood()));
    assertEquals(one, three);
    assertEquals(one, Evaluation.evaluate(model, test, Kernels.get(), 5, 2));
    double sum = 0;
    int correct = 0;
    for (int i = 0; i < n; i++) {
      float[] x = new float[COLUMNS];
      for (int j = 0; j < COLUMNS; j++) {
        x[j] = test.features().get(i, j);
      }
      sum += c.logProbability(x, labels[i]);
      correct += c.predict(x) == labels[i] ? 1 : 0;
    }
    assertEquals(sum / n, one.meanLogLikelihood(), 1e-5);
    assertEquals((double) correct / n, one.accuracy(), 2.0 / n);
  }

  /** save and load through a path and a stream give the model back bit for bit. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"linear", "factorized"})
  void savedAndLoadedThroughAPathAndAStream(String kind) throws IOException {
    SplittableRandom random = new SplittableRandom(11);
    Classifier c = Classifier.of(model(kind, Link.LOGISTIC, random));
    Path file = dir.resolve("model.bin");
    c.save(file);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    c.save(bytes);
    assertArrayEquals(Files.readAllBytes(file), bytes.toByteArray(), "the same format");
    for (Classifier back :
        List.of(
            Classifier.load(file),
            Classifier.load(new ByteArrayInputStream(bytes.toByteArray())))) {
      assertEquals(c.link(), back.link());
      assertEquals(c.classes(), back.classes());
      assertEquals(c.columns(), back.columns());
      assertEquals(c.model().getClass(), back.model().getClass());
      assertArrayEquals(c.model().biases(), back.model().biases());
      float[] x = gaussian(random, COLUMNS, 1);
      float[] p = new float[CLASSES];
      float[] q = new float[CLASSES];
      c.probabilities(x, p);
      back.probabilities(x, q);
      assertArrayEquals(p, q);
    }
  }

  /** A stream gets the file's refusals: a flipped bit, a short stream, bytes after the model. */
  @Test
  void aStreamIsRefusedAsAFileWouldBe() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Classifier.of(model("linear", Link.SOFTMAX, new SplittableRandom(12))).save(out);
    byte[] bytes = out.toByteArray();
    byte[] flipped = bytes.clone();
    flipped[60] ^= 4;
    assertRefused(flipped, "checksum mismatch");
    assertRefused(Arrays.copyOf(bytes, bytes.length - 1), "truncated");
    assertRefused(Arrays.copyOf(bytes, bytes.length + 1), "trailing bytes");
    assertRefused("3 5 4\n0 1:1\n".getBytes(), "not a largecat model file");
    float[] w = new float[CLASSES * COLUMNS];
    w[7] = Float.NaN;
    Classifier diverged =
        Classifier.of(new LinearModel(Link.SOFTMAX, CLASSES, COLUMNS, w, new double[CLASSES]));
    ByteArrayOutputStream none = new ByteArrayOutputStream();
    IOException e = assertThrows(IOException.class, () -> diverged.save(none));
    assertTrue(e.getMessage().contains("not written"), e.getMessage());
    assertEquals(0, none.size(), "nothing written");
  }

  private static void assertRefused(byte[] bytes, String reason) {
    IOException e =
        assertThrows(IOException.class, () -> Classifier.load(new ByteArrayInputStream(bytes)));
    assertTrue(
        e.getMessage().startsWith("the model stream: cannot load model: ")
            && e.getMessage().contains(reason),
        e.getMessage());
  }

  // ---------------------------------------------------------------- helpers

  private static void assertShapeError(Executable call, String given, String fix) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> call.run(), given);
    String m = e.getMessage();
    assertTrue(
        m.startsWith("model of K = " + CLASSES + " classes and D = " + COLUMNS + " features: ")
            && m.contains(given)
            && m.contains(fix),
        m);
  }

  /** Executable that may throw, for assertShapeError. */
  @FunctionalInterface
  private interface Executable {
    void run() throws Exception;
  }

  /** ψ(x) in double from the model's own weights. */
  private static double[] reference(ScoreModel model, float[] x) {
    double[] psi = model.biases().clone();
    switch (model) {
      case LinearModel m -> {
        for (int k = 0; k < m.classes(); k++) {
          for (int j = 0; j < m.columns(); j++) {
            psi[k] += (double) m.weights()[k * m.columns() + j] * x[j];
          }
        }
      }
      case FactorizedModel m -> {
        for (int c = 0; c < m.rank(); c++) {
          double h = 0;
          for (int j = 0; j < m.columns(); j++) {
            h += (double) x[j] * m.inputs()[j * m.rank() + c];
          }
          for (int k = 0; k < m.classes(); k++) {
            psi[k] += m.outputs()[k * m.rank() + c] * h;
          }
        }
      }
    }
    return psi;
  }

  private static int argmax(double[] v) {
    int best = 0;
    for (int k = 1; k < v.length; k++) {
      best = v[k] > v[best] ? k : best;
    }
    return best;
  }

  private static ScoreModel model(String kind, Link link, SplittableRandom random) {
    double[] b = doubles(gaussian(random, CLASSES, 0.5));
    return kind.equals("linear")
        ? new LinearModel(link, CLASSES, COLUMNS, gaussian(random, CLASSES * COLUMNS, 0.6), b)
        : new FactorizedModel(
            link,
            CLASSES,
            COLUMNS,
            RANK,
            gaussian(random, COLUMNS * RANK, 0.6),
            gaussian(random, CLASSES * RANK, 0.6),
            b);
  }

  private static float[] gaussian(SplittableRandom random, int n, double scale) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (random.nextGaussian() * scale);
    }
    return v;
  }

  private static double[] doubles(float[] v) {
    double[] d = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      d[i] = v[i];
    }
    return d;
  }

  private static int[] nonzeroColumns(float[] x) {
    int[] columns = new int[x.length];
    int count = 0;
    for (int j = 0; j < x.length; j++) {
      if (x[j] != 0) {
        columns[count++] = j;
      }
    }
    return Arrays.copyOf(columns, count);
  }

  private static float[] valuesAt(float[] x, int[] columns) {
    float[] values = new float[columns.length];
    for (int i = 0; i < columns.length; i++) {
      values[i] = x[columns[i]];
    }
    return values;
  }

  private static SparseFeatures sparse(DenseFeatures x) {
    int[] indptr = new int[x.rows() + 1];
    int[] indices = new int[x.values().length];
    float[] values = new float[x.values().length];
    int stored = 0;
    for (int i = 0; i < x.rows(); i++) {
      for (int j = 0; j < x.columns(); j++) {
        float v = x.values()[i * x.columns() + j];
        if (v != 0) {
          indices[stored] = j;
          values[stored++] = v;
        }
      }
      indptr[i + 1] = stored;
    }
    return new SparseFeatures(
        x.rows(),
        x.columns(),
        indptr,
        Arrays.copyOf(indices, stored),
        Arrays.copyOf(values, stored));
  }
}
