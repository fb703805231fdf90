package org.largecat.experiments;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.data.SparseFeatures;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;
import org.largecat.prepare.DebianPackage;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingRun;
import org.largecat.train.sampled.FactorizedTrainer;
import org.largecat.train.sampled.SampledTrainer;

/**
 * Big vocabularies: on kjv-nextword, A&R softmax (|B| = 500, |S| = 100, the paper's adaptive
 * schedule, for the factorized model with {@link StepSizeSchedule#FACTORIZED_SMOOTHING}) on the
 * linear model and on the factorized model of rank {@value #RANK}, each with per-example and shared
 * class sets, beside fastText's hierarchical softmax ({@code -loss hs}, dim 50, 100, 200, 5 and 10
 * epochs) when the {@code fasttext} command is on PATH (Debian's fasttext), skipped with a note
 * when it is not. Both see the same split (the test examples whose word never occurs in training
 * dropped, as fastText drops them) and the same threads; fastText reads each example as its three
 * preceding words in text order. largecat is scored after every epoch, its training time including
 * the model's initialisation and the trainer's set-up but not the scoring; fastText's time is the
 * wall time of its {@code supervised} run, reading its input and writing its model included. The
 * log-likelihood is largecat's exact one over all K.
 *
 * <p>The second table, {@code vocab-verdict}, states the vocabulary criterion: fastText's best row
 * (highest accuracy over its grid) and the first factorized point (least training time, either
 * sampling) whose accuracy is higher, with whether that point also took less time. The linear model
 * with per-example sampling is the full form's longest part (bench/log/2026-11-26.md has its cost);
 * it stays as the baseline the factorized model replaces.
 */
final class Vocab {
  static final int RANK = 100;
  private static final int[] FASTTEXT_DIMS = {50, 100, 200};
  private static final int[] FASTTEXT_EPOCHS = {5, 10};

  private static final List<String> COLUMNS =
      List.of(
          "system",
          "model",
          "sampling",
          "width",
          "epochs",
          "train_seconds",
          "seconds_per_epoch",
          "test_accuracy",
          "test_top5",
          "test_loglik",
          "test_examples");

  private Vocab() {}

  static ExperimentResult run(ExperimentSettings settings) throws IOException {
    Dataset[] set = PreparedSets.read(settings.data(), "kjv-nextword");
    Dataset train = set[0];
    Dataset test = Preprocessing.dropUnseenClasses(train, set[1]);
    int epochs = settings.quick() ? 1 : 5;
    ResultTable table = new ResultTable("vocab", COLUMNS);
    Map<String, double[][]> accuracy = new LinkedHashMap<>();
    Map<String, double[][]> logLikelihood = new LinkedHashMap<>();
    List<Point> largecatPoints = new ArrayList<>();
    List<Point> fastTextRuns = new ArrayList<>();
    settings
        .err()
        .printf(
            "vocab kjv-nextword: N = %d, D = %d, K = %d, %d test examples, %d thread(s)%n",
            train.rows(), train.columns(), train.classes(), test.rows(), settings.threads());
    for (Integer rank : new Integer[] {null, RANK}) {
      for (Sampling sampling : Sampling.values()) {
        String name =
            (rank == null ? "linear" : "rank " + rank) + ", " + label(sampling) + " sampling";
        double[][][] curves =
            largecat(train, test, rank, sampling, epochs, settings, table, largecatPoints);
        accuracy.put("largecat " + name, curves[0]);
        logLikelihood.put("largecat " + name, curves[1]);
      }
    }
    Path fasttext = DebianPackage.onPath("fasttext");
    if (fasttext == null) {
      settings
          .err()
          .println(
              "vocab: fastText skipped: the command 'fasttext' is not on PATH (apt-get install"
                  + " fasttext)");
    } else {
      Path words = settings.data().resolve("kjv-nextword").resolve("classes.txt");
      List<String> vocabulary = Files.readAllLines(words, StandardCharsets.UTF_8);
      Path dir = Files.createTempDirectory("largecat-vocab");
      try {
        Path trainText = writeFastText(train, vocabulary, dir.resolve("train.txt"));
        Path testText = writeFastText(test, vocabulary, dir.resolve("test.txt"));
        Map<String, Integer> ids = new HashMap<>();
        for (int k = 0; k < vocabulary.size(); k++) {
          ids.put(vocabulary.get(k), k);
        }
        int[] dims = settings.quick() ? new int[] {100} : FASTTEXT_DIMS;
        int[] passes = settings.quick() ? new int[] {5} : FASTTEXT_EPOCHS;
        for (int dim : dims) {
          double[][] curve = new double[2][passes.length];
          for (int p = 0; p < passes.length; p++) {
            double[] r =
                fastText(fasttext, trainText, testText, test, ids, dim, passes[p], dir, settings);
            table.add(
                "fasttext",
                "hs",
                "-",
                dim,
                passes[p],
                r[0],
                r[0] / passes[p],
                r[1],
                r[2],
                Double.NaN,
                test.rows());
            curve[0][p] = r[0];
            curve[1][p] = r[1];
            fastTextRuns.add(new Point("fasttext", "hs", "-", dim, passes[p], r[0], r[1]));
          }
          accuracy.put("fastText hs, dim " + dim + " (" + join(passes) + " epochs)", curve);
        }
      } finally {
        try (var files = Files.list(dir)) {
          for (Path f : files.toList()) {
            Files.delete(f);
          }
        }
        Files.delete(dir);
      }
    }
    List<Path> figures =
        Plots.panels(
            List.of(
                new Plots.Panel(
                    "kjv-nextword: test accuracy against training time",
                    "seconds",
                    "test accuracy",
                    accuracy,
                    Plots.Axes.LINEAR,
                    true),
                new Plots.Panel(
                    "kjv-nextword: largecat's exact test log-likelihood",
                    "seconds",
                    "mean test log-likelihood",
                    logLikelihood,
                    Plots.Axes.LINEAR,
                    true)),
            2,
            settings.out().resolve("vocab-kjv-nextword"));
    if (fastTextRuns.isEmpty()) {
      return new ExperimentResult(List.of(table), figures);
    }
    Verdict verdict = Verdict.of(fastTextRuns, largecatPoints);
    settings.err().println("vocab: " + verdict.sentence());
    return new ExperimentResult(List.of(table, verdict.table()), figures);
  }

  /** One scored model: the columns the verdict compares. */
  record Point(
      String system,
      String model,
      String sampling,
      int width,
      int epochs,
      double seconds,
      double accuracy) {}

  /**
   * The vocabulary criterion: {@code largecat} is the first factorized point (least time) above
   * {@code fastText}'s best accuracy, or the most accurate factorized point when none is above
   * ({@code above} false); {@code holds} when it is above in less time.
   */
  record Verdict(Point fastText, Point largecat, boolean above, boolean holds) {
    /** The verdict over fastText's runs and largecat's points, of which the factorized count. */
    static Verdict of(List<Point> fastTextRuns, List<Point> largecatPoints) {
      List<Point> factorized =
          largecatPoints.stream().filter(p -> p.model().equals("factorized")).toList();
      if (fastTextRuns.isEmpty() || factorized.isEmpty()) {
        throw new IllegalArgumentException("the verdict needs fastText runs and factorized points");
      }
      Point best = fastTextRuns.getFirst();
      for (Point p : fastTextRuns) {
        if (p.accuracy() > best.accuracy()
            || (p.accuracy() == best.accuracy() && p.seconds() < best.seconds())) {
          best = p;
        }
      }
      Point first = null;
      Point mostAccurate = factorized.getFirst();
      for (Point p : factorized) {
        if (p.accuracy() > best.accuracy() && (first == null || p.seconds() < first.seconds())) {
          first = p;
        }
        if (p.accuracy() > mostAccurate.accuracy()) {
          mostAccurate = p;
        }
      }
      return first == null
          ? new Verdict(best, mostAccurate, false, false)
          : new Verdict(best, first, true, first.seconds() < best.seconds());
    }

    String sentence() {
      return String.format(
          Locale.ROOT,
          "fastText's best accuracy %.4f (dim %d, %d epochs) in %.1f s; %s %.4f (rank %d, %s, epoch"
              + " %d) in %.1f s: the criterion %s",
          fastText.accuracy(),
          fastText.width(),
          fastText.epochs(),
          fastText.seconds(),
          above ? "the first factorized point above it" : "no factorized point above it, the best",
          largecat.accuracy(),
          largecat.width(),
          largecat.sampling(),
          largecat.epochs(),
          largecat.seconds(),
          holds ? "holds" : "does not hold");
    }

    ResultTable table() {
      ResultTable table =
          new ResultTable(
              "vocab-verdict",
              List.of(
                  "row",
                  "system",
                  "model",
                  "sampling",
                  "width",
                  "epochs",
                  "train_seconds",
                  "test_accuracy",
                  "criterion_holds"));
      add(table, "fasttext best", fastText, null);
      add(
          table,
          above ? "first factorized above it" : "best factorized (none above)",
          largecat,
          holds);
      return table;
    }

    private static void add(ResultTable table, String row, Point p, Boolean holds) {
      table.add(
          row,
          p.system(),
          p.model(),
          p.sampling(),
          p.width(),
          p.epochs(),
          p.seconds(),
          p.accuracy(),
          holds);
    }
  }

  private static String label(Sampling sampling) {
    return sampling == Sampling.SHARED ? "shared" : "per-example";
  }

  private static String join(int[] values) {
    StringBuilder s = new StringBuilder();
    for (int v : values) {
      s.append(s.isEmpty() ? "" : ", ").append(v);
    }
    return s.toString();
  }

  /**
   * Trains one largecat model for {@code epochs} epochs, scoring it after each; adds a row per
   * epoch, adds each epoch's point to {@code points}, and returns the curves (seconds, accuracy)
   * and (seconds, log-likelihood).
   */
  private static double[][][] largecat(
      Dataset train,
      Dataset test,
      Integer rank,
      Sampling sampling,
      int epochs,
      ExperimentSettings settings,
      ResultTable table,
      List<Point> points) {
    long setUp = System.nanoTime();
    SampledSpec options =
        SampledSpec.builder(Method.AR_SOFTMAX)
            .batch(500)
            .sampled(100)
            .threads(settings.threads())
            .sampling(sampling)
            .build();
    Kernels kernels = Kernels.get();
    ScoreModel model;
    Trainer trainer;
    if (rank == null) {
      LinearModel linear =
          LinearModel.zeros(Method.AR_SOFTMAX.link(), train.classes(), train.columns());
      SampledTrainer.initialise(linear, options);
      model = linear;
      trainer = new SampledTrainer(train, linear, options, kernels);
    } else {
      options =
          options.toBuilder()
              .stepSize(StepSizeSchedule.PAPER.withSmoothing(StepSizeSchedule.FACTORIZED_SMOOTHING))
              .build();
      var factorized = FactorizedTrainer.initialModel(train, options, rank);
      model = factorized;
      trainer = new FactorizedTrainer(train, factorized, options, kernels);
    }
    double[][][] curves = new double[2][2][epochs];
    double seconds = (System.nanoTime() - setUp) / 1e9;
    try (trainer) {
      for (int e = 1; e <= epochs; e++) {
        TrainingRun run =
            TrainingRun.run(trainer, trainer.iterationsPerEpoch(), 60, (t, n, b, s) -> {});
        seconds += run.seconds();
        Evaluation.Result r = Evaluation.evaluate(model, test, kernels, 5, settings.threads());
        settings
            .err()
            .printf(
                "vocab %s %s: epoch %d, %.1f s, accuracy %.4f, top-5 %.4f, log-likelihood %.4f%n",
                rank == null ? "linear" : "rank " + rank,
                label(sampling),
                e,
                seconds,
                r.accuracy(),
                r.topKAccuracy(),
                r.meanLogLikelihood());
        String modelName = rank == null ? "linear" : "factorized";
        int width = rank == null ? train.columns() : rank;
        points.add(
            new Point("largecat", modelName, label(sampling), width, e, seconds, r.accuracy()));
        table.add(
            "largecat",
            modelName,
            label(sampling),
            width,
            e,
            seconds,
            seconds / e,
            r.accuracy(),
            r.topKAccuracy(),
            r.meanLogLikelihood(),
            r.examples());
        curves[0][0][e - 1] = seconds;
        curves[0][1][e - 1] = r.accuracy();
        curves[1][0][e - 1] = seconds;
        curves[1][1][e - 1] = r.meanLogLikelihood();
      }
    }
    return curves;
  }

  /**
   * Writes {@code data} as fastText reads it: {@code __label__WORD} and the preceding words, the
   * farthest first (the feature value is 1/distance).
   */
  private static Path writeFastText(Dataset data, List<String> words, Path file)
      throws IOException {
    SparseFeatures x = (SparseFeatures) data.features();
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int n = 0; n < data.rows(); n++) {
        out.write("__label__");
        out.write(words.get(data.labels()[n]));
        int from = x.indptr()[n];
        int to = x.indptr()[n + 1];
        Integer[] order = new Integer[to - from];
        for (int i = 0; i < order.length; i++) {
          order[i] = from + i;
        }
        Arrays.sort(order, (a, b) -> Float.compare(x.values()[a], x.values()[b]));
        for (int i : order) {
          out.write(' ');
          out.write(words.get(x.indices()[i]));
        }
        out.write('\n');
      }
    }
    return file;
  }

  /**
   * One fastText run: {seconds of {@code supervised}, test accuracy, top-5 accuracy}, both scored
   * here from its top-5 predictions over every test example.
   */
  private static double[] fastText(
      Path fasttext,
      Path train,
      Path test,
      Dataset testSet,
      Map<String, Integer> ids,
      int dim,
      int epochs,
      Path dir,
      ExperimentSettings settings)
      throws IOException {
    Path model = dir.resolve("model");
    long start = System.nanoTime();
    command(
        List.of(
            fasttext.toString(),
            "supervised",
            "-input",
            train.toString(),
            "-output",
            model.toString(),
            "-loss",
            "hs",
            "-dim",
            Integer.toString(dim),
            "-epoch",
            Integer.toString(epochs),
            "-thread",
            Integer.toString(settings.threads()),
            "-verbose",
            "0"),
        null);
    double seconds = (System.nanoTime() - start) / 1e9;
    List<String> predictions = new ArrayList<>();
    command(
        List.of(fasttext.toString(), "predict", model + ".bin", test.toString(), "5"), predictions);
    if (predictions.size() != testSet.rows()) {
      throw new IOException(
          "fasttext predict gave "
              + predictions.size()
              + " lines for "
              + testSet.rows()
              + " test examples");
    }
    long correct = 0;
    long top5 = 0;
    for (int n = 0; n < testSet.rows(); n++) {
      String[] labels = predictions.get(n).split(" ");
      for (int i = 0; i < labels.length; i++) {
        Integer k = ids.get(labels[i].substring("__label__".length()));
        if (k != null && k == testSet.labels()[n]) {
          correct += i == 0 ? 1 : 0;
          top5++;
        }
      }
    }
    Files.deleteIfExists(Path.of(model + ".bin"));
    Files.deleteIfExists(Path.of(model + ".vec"));
    settings
        .err()
        .printf(
            "vocab fastText hs dim %d, %d epochs: %.1f s, accuracy %.4f, top-5 %.4f%n",
            dim,
            epochs,
            seconds,
            correct / (double) testSet.rows(),
            top5 / (double) testSet.rows());
    return new double[] {
      seconds, correct / (double) testSet.rows(), top5 / (double) testSet.rows()
    };
  }

  /** Runs {@code command}, its output lines into {@code lines} (or discarded when null). */
  private static void command(List<String> command, List<String> lines) throws IOException {
    Process process =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (lines != null) {
          lines.add(line);
        }
      }
    }
    try {
      int status = process.waitFor();
      if (status != 0) {
        throw new IOException(String.join(" ", command) + " exited with status " + status);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for " + command.get(0), e);
    }
  }
}
