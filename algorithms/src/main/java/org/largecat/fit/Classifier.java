package org.largecat.fit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Objects;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.eval.ClassRanks;
import org.largecat.eval.Evaluation;
import org.largecat.eval.NonFiniteScoreException;
import org.largecat.eval.Predictor;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ModelFile;
import org.largecat.model.ScoreModel;

/**
 * The one way a program scores a trained model: the most probable class, the top k, every class's
 * probability, of one example (dense {@code float[]}, or sparse column indices and values) or of
 * many, and the evaluation of a labelled test set.
 *
 * <p><b>Threads.</b> One instance serves any number of threads at once: the model is only read, and
 * each thread's scratch (the K utilities, a block of scores) is its own, made on its first call and
 * reused, so a single-example call allocates nothing but what it returns ({@link #top}'s array).
 * Batch calls run in the calling thread; {@link #evaluate(Dataset, int)} splits a test set across
 * threads of its own. The scratch of a thread lives as long as the thread and this instance.
 *
 * <p><b>Shapes</b> are checked before any work: an example has the model's D features, an output
 * its K classes (or rows × K), a sparse example's columns are in [0, D) and increasing; a mistake
 * is an {@link IllegalArgumentException} whose message names the model's K and D, what was given
 * and the fix. A feature given as an array that is NaN or infinite is refused the same way; a score
 * that comes out NaN or infinite all the same (features of a {@link Dataset}, or weights too large
 * for them) is a {@link NonFiniteScoreException}: no class is predicted from a NaN.
 *
 * <p><b>Numbers.</b> One example is scored by a gather-dot summed in double; many by float gemms
 * over blocks of rows (for a factorized model H = X V, then H Uᵀ), so the two agree to float
 * rounding, not bit for bit. The predicted class is the largest utility (ties to the smaller
 * index), the most probable under every link. Probit and logistic probabilities come from {@code
 * UtilityModelQuadrature}, softmax ones in closed form.
 */
public final class Classifier {
  /** The k of the top-k accuracy {@link #evaluate} reports. */
  public static final int TOP_K = 5;

  private final ScoreModel model;
  private final Kernels kernels;
  private final ThreadLocal<Scratch> scratch;

  /** One thread's scoring state. */
  private static final class Scratch {
    final Predictor predictor;
    final double[] psi;
    final double[] logP;

    Scratch(ScoreModel model, Kernels kernels) {
      this.predictor = new Predictor(model, kernels);
      this.psi = new double[model.classes()];
      this.logP = new double[model.classes()];
    }
  }

  private Classifier(ScoreModel model, Kernels kernels) {
    this.model = Objects.requireNonNull(model, "model");
    this.kernels = Objects.requireNonNull(kernels, "kernels");
    this.scratch = ThreadLocal.withInitial(() -> new Scratch(this.model, this.kernels));
  }

  /**
   * A classifier of {@code model} on the kernels chosen for this machine ({@link Kernels#get()}).
   * The model's arrays are not copied: they must not change while this classifier is in use.
   */
  public static Classifier of(ScoreModel model) {
    return new Classifier(model, Kernels.get());
  }

  /** As {@link #of(ScoreModel)}, on the given kernels (e.g. {@code Kernels.of("scalar")}). */
  public static Classifier of(ScoreModel model, Kernels kernels) {
    return new Classifier(model, kernels);
  }

  /**
   * Loads a model saved by {@link #save(Path)} (or {@code largecat train --model}).
   *
   * @throws IOException naming the file and the reason when it is missing, truncated, corrupt
   *     (checksum), of another format or holds a non-finite weight
   */
  public static Classifier load(Path file) throws IOException {
    return of(ModelFile.readScoreModel(file));
  }

  /**
   * Loads a model written by {@link #save(OutputStream)}, reading {@code in} to its end (bytes
   * after the model are refused) and leaving it open.
   *
   * @throws IOException as {@link #load(Path)}
   */
  public static Classifier load(InputStream in) throws IOException {
    return of(ModelFile.readScoreModel(in, "the model stream"));
  }

  /**
   * Saves the model to {@code file}, which is replaced only once the whole model is on disk; a
   * failed save leaves the old file as it was.
   */
  public void save(Path file) throws IOException {
    ModelFile.write(model, file);
  }

  /** Writes the model to {@code out} in the file's format (checksum included); out stays open. */
  public void save(OutputStream out) throws IOException {
    ModelFile.write(model, out);
  }

  /** K, the number of classes. */
  public int classes() {
    return model.classes();
  }

  /** D, the number of features of an example. */
  public int columns() {
    return model.columns();
  }

  /**
   * The model scored, a {@link LinearModel} or a {@link FactorizedModel}. Its arrays are this
   * classifier's own: read them, never write them (threads scoring at the time would see the change
   * half made).
   */
  public ScoreModel model() {
    return model;
  }

  /** How utilities become probabilities: softmax, probit or logistic. */
  public Link link() {
    return model.link();
  }

  // ---------------------------------------------------------------- one dense example

  /** The most probable class of the dense example x (D values). */
  public int predict(float[] x) {
    Scratch s = dense(x);
    return ClassRanks.best(s.psi);
  }

  /** out[k] = p(k | x) for every class k of the dense example x; out has K elements. */
  public void probabilities(float[] x, float[] out) {
    requireLength(out.length, classes(), "out", "K", "one probability per class");
    Scratch s = dense(x);
    probabilities(s, out, 0);
  }

  /** The k most probable classes of the dense example x, best first (ties to the smaller class). */
  public int[] top(float[] x, int k) {
    requireTop(k);
    Scratch s = dense(x);
    int[] best = new int[k];
    ClassRanks.topClasses(s.psi, best);
    return best;
  }

  /** log p(label | x) for the dense example x. */
  public double logProbability(float[] x, int label) {
    if (label < 0 || label >= classes()) {
      throw shapeError(
          "label " + label + " is not a class; give one in [0, K = " + classes() + ")");
    }
    Scratch s = dense(x);
    return s.predictor.logProbability(s.psi, label);
  }

  // ---------------------------------------------------------------- one sparse example

  /**
   * The most probable class of the sparse example whose values[i] sits in column indices[i]: the
   * columns in [0, D), increasing, each once; the columns not given are 0.
   */
  public int predict(int[] indices, float[] values) {
    Scratch s = sparse(indices, values);
    return ClassRanks.best(s.psi);
  }

  /** out[k] = p(k | x) for the sparse example x as in {@link #predict(int[], float[])}. */
  public void probabilities(int[] indices, float[] values, float[] out) {
    requireLength(out.length, classes(), "out", "K", "one probability per class");
    Scratch s = sparse(indices, values);
    probabilities(s, out, 0);
  }

  /** The k most probable classes of the sparse example, best first. */
  public int[] top(int[] indices, float[] values, int k) {
    requireTop(k);
    Scratch s = sparse(indices, values);
    int[] best = new int[k];
    ClassRanks.topClasses(s.psi, best);
    return best;
  }

  // ---------------------------------------------------------------- many examples

  /**
   * out[n] = the most probable class of example n of {@code data} (its labels are not read), by
   * blocks of rows in the calling thread.
   */
  public void predict(Dataset data, int[] out) {
    requireColumns(data.columns(), "the data set has");
    requireLength(out.length, data.rows(), "out", "the data set's rows", "one class per row");
    scratch
        .get()
        .predictor
        .forEachRow(
            data.features(), 0, data.rows(), 1, (row, psi) -> out[row] = ClassRanks.best(psi));
  }

  /**
   * out[n] = the most probable class of row n of {@code rowMajor}, {@code rows} examples of D
   * values each, one after the other.
   */
  public void predict(float[] rowMajor, int rows, int[] out) {
    DenseFeatures x = rows(rowMajor, rows);
    requireLength(out.length, rows, "out", "rows", "one class per row");
    scratch
        .get()
        .predictor
        .forEachRow(x, 0, rows, 1, (row, psi) -> out[row] = ClassRanks.best(psi));
  }

  /**
   * out[n K + k] = p(k | row n) for the {@code rows} rows of {@code rowMajor} (D values each); out
   * has rows × K elements.
   */
  public void probabilities(float[] rowMajor, int rows, float[] out) {
    DenseFeatures x = rows(rowMajor, rows);
    if (out.length != (long) rows * classes()) {
      throw shapeError(
          "out has "
              + out.length
              + " elements; "
              + rows
              + " rows need rows × K = "
              + (long) rows * classes());
    }
    Scratch s = scratch.get();
    s.predictor.forEachRow(
        x,
        0,
        rows,
        1,
        (row, psi) -> {
          s.predictor.logProbabilities(psi, s.logP);
          for (int k = 0; k < s.logP.length; k++) {
            out[row * s.logP.length + k] = (float) Math.exp(s.logP[k]);
          }
        });
  }

  /**
   * The mean log-likelihood, accuracy and top-{@value #TOP_K} accuracy on {@code test}, with one
   * thread per core; the result is the same bit for bit for any number of threads.
   */
  public Evaluation.Result evaluate(Dataset test) {
    return evaluate(test, Runtime.getRuntime().availableProcessors());
  }

  /** As {@link #evaluate(Dataset)} on {@code threads} threads of its own. */
  public Evaluation.Result evaluate(Dataset test, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads = " + threads + "; give 1 or more");
    }
    if (test.classes() != classes() || test.columns() != columns()) {
      throw shapeError(
          "the test set has K = "
              + test.classes()
              + " classes and D = "
              + test.columns()
              + " features; read it with the model's K and D");
    }
    return Evaluation.evaluate(model, test, kernels, Math.min(TOP_K, classes()), threads);
  }

  // ---------------------------------------------------------------- checks and helpers

  /** The thread's scratch with psi = ψ(x), x checked. */
  private Scratch dense(float[] x) {
    requireLength(
        x.length,
        columns(),
        "x",
        "D",
        "one value per feature, in the order the model was trained on");
    for (int j = 0; j < x.length; j++) {
      if (!Float.isFinite(x[j])) {
        throw shapeError("x[" + j + "] is " + x[j] + "; every feature must be finite");
      }
    }
    Scratch s = scratch.get();
    s.predictor.utilities(x, 0, 0, s.psi);
    return s;
  }

  /** The thread's scratch with psi = ψ(x) for a sparse x, checked. */
  private Scratch sparse(int[] indices, float[] values) {
    if (indices.length != values.length) {
      throw shapeError(
          "indices has "
              + indices.length
              + " elements and values "
              + values.length
              + "; give one value per index");
    }
    for (int i = 0; i < values.length; i++) {
      if (!Float.isFinite(values[i])) {
        throw shapeError("values[" + i + "] is " + values[i] + "; every feature must be finite");
      }
    }
    Scratch s = scratch.get();
    s.predictor.utilities(indices, values, 0, indices.length, 0, s.psi);
    return s;
  }

  /** out[off + k] = p(k | ψ) for the scratch's psi. */
  private static void probabilities(Scratch s, float[] out, int off) {
    s.predictor.logProbabilities(s.psi, s.logP);
    for (int k = 0; k < s.logP.length; k++) {
      out[off + k] = (float) Math.exp(s.logP[k]);
    }
  }

  /** {@code rows} rows of D values in rowMajor, checked, as features. */
  private DenseFeatures rows(float[] rowMajor, int rows) {
    if (rows < 0 || rowMajor.length != (long) rows * columns()) {
      throw shapeError(
          "rowMajor has "
              + rowMajor.length
              + " values for rows = "
              + rows
              + "; it needs rows × D = "
              + (rows < 0 ? "(rows must be >= 0)" : (long) rows * columns())
              + ", each row's D features one after the other");
    }
    for (int i = 0; i < rowMajor.length; i++) {
      if (!Float.isFinite(rowMajor[i])) {
        throw shapeError(
            "row "
                + i / columns()
                + ", feature "
                + i % columns()
                + " is "
                + rowMajor[i]
                + "; every feature must be finite");
      }
    }
    return new DenseFeatures(rows, columns(), rowMajor);
  }

  private void requireTop(int k) {
    if (k < 1 || k > classes()) {
      throw shapeError("k = " + k + " classes asked for; give k in [1, K = " + classes() + "]");
    }
  }

  private void requireColumns(int given, String what) {
    if (given != columns()) {
      throw shapeError(
          what
              + " "
              + given
              + " features; give exactly D = "
              + columns()
              + ", in the order the model was trained on");
    }
  }

  private void requireLength(int given, int length, String name, String what, String fix) {
    if (given != length) {
      throw shapeError(
          name + " has " + given + " elements; give exactly " + what + " = " + length + ": " + fix);
    }
  }

  private IllegalArgumentException shapeError(String problem) {
    return Predictor.shapeError(model, problem);
  }
}
