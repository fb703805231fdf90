package org.largecat.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.eval.Evaluation;
import org.largecat.fit.Trainers;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Trainer;
import org.largecat.train.sampled.SampledTrainer;

/**
 * A&R Tables 2–3 and Figure 2: time per epoch, test log-likelihood and accuracy of exact softmax,
 * OVE and A&R softmax / probit / logistic, and the bound against time. {@code ar-real} runs the
 * real sets prepared here: Fashion-MNIST with the paper's MNIST settings (|B| = 500, |S| = 1,
 * 35,000 iterations, features divided by their maximum) and the paper's MNIST figures beside it for
 * shape (Fashion-MNIST is the harder set); kjv-nextword with |B| = 500, |S| = 100, where exact
 * softmax, whose every step touches all K rows, runs a tenth of the iterations. {@code ar-linear}
 * runs generated linear softmax data, whose generating model's test log-likelihood is the reference
 * no fitted model should beat by more than chance. Probit and logistic log-likelihoods are exact
 * quadratures costing O(K) per node, so on large sets they are measured on the first {@value
 * #QUADRATURE_EXAMPLES} test examples. Every method trains under the experiments' stopping rule
 * ({@link RunEnd#underRule}) for at most the iterations above.
 */
public final class ArReal {
  static final int QUADRATURE_EXAMPLES = 2000;
  private static final Method[] METHODS = {
    Method.EXACT_SOFTMAX_SGD, Method.OVE, Method.AR_SOFTMAX, Method.AR_PROBIT, Method.AR_LOGISTIC
  };

  /**
   * MNIST row of A&R Tables 2 and 3, in METHODS order: seconds per epoch (no exact figure),
   * log-likelihood, accuracy.
   */
  private static final double[][] PAPER_MNIST = {
    {Double.NaN, -0.261, 0.927},
    {0.336, -0.276, 0.919},
    {0.337, -0.271, 0.924},
    {0.431, -0.302, 0.918},
    {0.511, -0.287, 0.917}
  };

  private static final List<String> COLUMNS =
      List.of(
          "dataset",
          "method",
          "iterations",
          "epochs",
          "stopped_because",
          "converged",
          "seconds_per_epoch",
          "test_loglik",
          "test_accuracy",
          "test_examples",
          "paper_seconds_per_epoch",
          "paper_test_loglik",
          "paper_test_accuracy");

  /**
   * One dataset of the comparison.
   *
   * @param iterations the most iterations of a sampled method
   * @param exactIterations the most iterations of exact softmax, whose step costs O(K)
   * @param quadratureExamples the test examples on which probit and logistic are scored
   * @param paper the paper's (seconds per epoch, log-likelihood, accuracy) per method, or null
   */
  private record ComparisonSet(
      String name,
      Dataset train,
      Dataset test,
      int sampled,
      int iterations,
      int exactIterations,
      int quadratureExamples,
      double[][] paper) {}

  private ArReal() {}

  /** {@code ar-real}: both prepared sets. */
  static ExperimentResult run(ExperimentSettings settings) throws IOException {
    ResultTable table = new ResultTable("ar-real", COLUMNS);
    List<Path> figures = new ArrayList<>();
    Dataset[] fashion = read(settings, "fashion-mnist");
    Dataset[] scaled =
        Preprocessing.scaleByTrainingMaximum(
            PreparedSets.dense(fashion[0]), PreparedSets.dense(fashion[1]));
    int fashionIterations = settings.iterations(35_000, 3_000);
    figures.addAll(
        compare(
            table,
            new ComparisonSet(
                "fashion-mnist",
                scaled[0],
                scaled[1],
                1,
                fashionIterations,
                fashionIterations,
                Integer.MAX_VALUE,
                PAPER_MNIST),
            settings));
    Dataset[] kjv = read(settings, "kjv-nextword");
    int kjvIterations = settings.iterations(20_000, 1_000);
    figures.addAll(
        compare(
            table,
            new ComparisonSet(
                "kjv-nextword",
                kjv[0],
                kjv[1],
                100,
                kjvIterations,
                kjvIterations / 10,
                QUADRATURE_EXAMPLES,
                null),
            settings));
    return new ExperimentResult(List.of(table), figures);
  }

  /**
   * {@code ar-linear}: linear softmax data with known truth, K = 200, D = 20, |S| = 20, at most 20
   * epochs (quick: 20,000 training examples, full: 200,000); the generating model is scored as the
   * reference row "truth".
   */
  static ExperimentResult linear(ExperimentSettings settings) throws IOException {
    int rows = settings.quick() ? 20_000 : 200_000;
    int testRows = 5_000;
    SyntheticSet generated = SyntheticData.linearSoftmax(rows + testRows, 20, 200, 0.5, 11);
    Dataset all = generated.data();
    Dataset train = all.subset(IntStream.range(0, rows).toArray());
    Dataset test = all.subset(IntStream.range(rows, rows + testRows).toArray());
    ResultTable table = new ResultTable("ar-linear", COLUMNS);
    LinearModel truth =
        new LinearModel(
            Link.SOFTMAX, all.classes(), all.columns(), generated.weights(), generated.biases());
    Evaluation.Result r = Evaluation.evaluate(truth, test, Kernels.get(), 5, settings.threads());
    table.add(
        "linear-softmax",
        "truth",
        0,
        null,
        null,
        null,
        Double.NaN,
        r.meanLogLikelihood(),
        r.accuracy(),
        r.examples(),
        Double.NaN,
        Double.NaN,
        Double.NaN);
    int iterations = settings.iterations(20 * rows / 500, 20 * rows / 500);
    List<Path> figures =
        compare(
            table,
            new ComparisonSet(
                "linear-softmax",
                train,
                test,
                20,
                iterations,
                iterations,
                QUADRATURE_EXAMPLES,
                null),
            settings);
    return new ExperimentResult(List.of(table), figures);
  }

  /**
   * Trains every method on one set, adds its rows to {@code table} and returns Figure 2's files.
   */
  private static List<Path> compare(
      ResultTable table, ComparisonSet set, ExperimentSettings settings) throws IOException {
    PrintStream err = settings.err();
    Dataset train = set.train();
    Dataset test = set.test();
    err.printf(
        "%s %s: N = %d, D = %d, K = %d, %d test examples%n",
        table.name(), set.name(), train.rows(), train.columns(), train.classes(), test.rows());
    Kernels kernels = Kernels.get();
    Map<String, double[][]> bounds = new LinkedHashMap<>();
    for (int m = 0; m < METHODS.length; m++) {
      Method method = METHODS[m];
      SampledSpec options =
          SampledSpec.builder(method)
              .batch(500)
              .sampled(set.sampled())
              .threads(settings.threads())
              .sampling(settings.sampling())
              .build();
      int budget = method == Method.EXACT_SOFTMAX_SGD ? set.exactIterations() : set.iterations();
      LinearModel model = LinearModel.zeros(method.link(), train.classes(), train.columns());
      SampledTrainer.initialise(model, options);
      RunEnd.Ruled ruled;
      Progress progress = new Progress(settings.err(), set.name() + " " + method.label());
      try (Trainer trainer = Trainers.create(train, model, options, kernels)) {
        ruled = RunEnd.underRule(trainer, budget, progress);
      }
      if (method.link() == Link.SOFTMAX) {
        bounds.put(
            method == Method.EXACT_SOFTMAX_SGD ? "exact log-likelihood" : method.label() + " bound",
            progress.trace());
      }
      Dataset scored =
          method.link() != Link.SOFTMAX && test.rows() > set.quadratureExamples()
              ? test.subset(IntStream.range(0, set.quadratureExamples()).toArray())
              : test;
      Evaluation.Result r = Evaluation.evaluate(model, scored, kernels, 5, settings.threads());
      double[] paper =
          set.paper() == null ? new double[] {Double.NaN, Double.NaN, Double.NaN} : set.paper()[m];
      table.add(
          set.name(),
          method.label(),
          ruled.run().iterations(),
          ruled.end().epochs(),
          ruled.end().stoppedBecause(),
          ruled.end().converged(),
          ruled.run().secondsPerEpoch(),
          r.meanLogLikelihood(),
          r.accuracy(),
          r.examples(),
          paper[0],
          paper[1],
          paper[2]);
    }
    return Plots.lines(
        set.name() + ": bound on the training log-likelihood (A&R Figure 2)",
        "seconds",
        "bound (mean over the last epoch)",
        bounds,
        settings.out().resolve(table.name() + "-" + set.name()));
  }

  /** The prepared train and test sets, the test set without classes the training set lacks. */
  private static Dataset[] read(ExperimentSettings settings, String name) throws IOException {
    Dataset[] set = PreparedSets.read(settings.data(), name);
    return new Dataset[] {set[0], Preprocessing.dropUnseenClasses(set[0], set[1])};
  }
}
