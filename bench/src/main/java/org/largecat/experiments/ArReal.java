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
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.Method;
import org.largecat.train.SampledTrainer;
import org.largecat.train.Trainer;
import org.largecat.train.Trainers;
import org.largecat.train.TrainingOptions;
import org.largecat.train.TrainingRun;

/**
 * A&R Tables 2–3 on the real sets prepared here: time per epoch, test log-likelihood and accuracy
 * of exact softmax, OVE and A&R softmax / probit / logistic. Fashion-MNIST takes the paper's MNIST
 * settings (|B| = 500, |S| = 1, 35,000 iterations, features divided by their maximum) and has the
 * paper's MNIST figures beside it for shape (Fashion-MNIST is the harder set); kjv-nextword takes
 * |B| = 500, |S| = 100; there exact softmax, whose every step touches all K rows (about 2.5 s an
 * iteration here), runs a tenth of the iterations. Probit and logistic log-likelihoods are exact quadratures costing O(K) per
 * node, so on kjv-nextword they are measured on the first {@value #QUADRATURE_EXAMPLES} test examples.
 */
public final class ArReal {
  static final int QUADRATURE_EXAMPLES = 2000;
  private static final Method[] METHODS = {Method.EXACT_SOFTMAX, Method.OVE, Method.AR_SOFTMAX, Method.AR_PROBIT,
      Method.AR_LOGISTIC};
  /** MNIST row of A&R Tables 2 and 3, in METHODS order: seconds per epoch (no exact figure), log-likelihood, accuracy. */
  private static final double[][] PAPER_MNIST = {{Double.NaN, -0.261, 0.927}, {0.336, -0.276, 0.919},
      {0.337, -0.271, 0.924}, {0.431, -0.302, 0.918}, {0.511, -0.287, 0.917}};

  private ArReal() {}

  /** Runs both sets; draws Figure 2, the bound against time, per set. */
  static ExperimentResult run(ExperimentSettings settings) throws IOException {
    ResultTable table = new ResultTable("ar-real", List.of("dataset", "method", "iterations", "seconds_per_epoch",
        "test_loglik", "test_accuracy", "test_examples", "paper_seconds_per_epoch", "paper_test_loglik",
        "paper_test_accuracy"));
    List<Path> figures = new ArrayList<>();
    figures.addAll(run(table, "fashion-mnist", 1, settings.iterations(35_000, 3_000), true, settings));
    figures.addAll(run(table, "kjv-nextword", 100, settings.iterations(20_000, 1_000), false, settings));
    return new ExperimentResult(List.of(table), figures);
  }

  private static List<Path> run(ResultTable table, String name, int sampled, int iterations, boolean mnist,
      ExperimentSettings settings) throws IOException {
    PrintStream err = settings.err();
    int threads = settings.threads();
    Dataset[] sets = PreparedSets.read(settings.data(), name);
    Dataset train = sets[0];
    Dataset test = sets[1];
    test = Preprocessing.dropUnseenClasses(train, test);
    if (mnist) {
      Dataset[] scaled = Preprocessing.scaleByTrainingMaximum(PreparedSets.dense(train), PreparedSets.dense(test));
      train = scaled[0];
      test = scaled[1];
    }
    err.printf("ar-real %s: N = %d, D = %d, K = %d, %d test examples%n", name, train.rows(), train.columns(),
        train.classes(), test.rows());
    Kernels kernels = Kernels.get();
    Map<String, double[][]> bounds = new LinkedHashMap<>();
    for (int m = 0; m < METHODS.length; m++) {
      Method method = METHODS[m];
      TrainingOptions options = TrainingOptions.defaults(method).withBatch(500, sampled).withThreads(threads)
          .withSampling(settings.sampling());
      int steps = !mnist && method == Method.EXACT_SOFTMAX ? iterations / 10 : iterations;
      LinearModel model = LinearModel.zeros(method.link(), train.classes(), train.columns());
      SampledTrainer.initialise(model, options);
      TrainingRun run;
      Progress progress = new Progress(err, name + " " + method.label());
      try (Trainer trainer = Trainers.create(train, model, options, kernels)) {
        run = TrainingRun.run(trainer, steps, Progress.REPORT_SECONDS, progress);
      }
      if (method.link() == Link.SOFTMAX) {
        bounds.put(method == Method.EXACT_SOFTMAX ? "exact log-likelihood" : method.label() + " bound", progress.trace());
      }
      Dataset scored = !mnist && method.link() != Link.SOFTMAX && test.rows() > QUADRATURE_EXAMPLES
          ? test.subset(IntStream.range(0, QUADRATURE_EXAMPLES).toArray()) : test;
      Evaluation.Result r = Evaluation.evaluate(model, scored, kernels, 5, threads);
      double[] paper = mnist ? PAPER_MNIST[m] : new double[] {Double.NaN, Double.NaN, Double.NaN};
      table.add(name, method.label(), steps, run.secondsPerEpoch(), r.meanLogLikelihood(), r.accuracy(), r.examples(),
          paper[0], paper[1], paper[2]);
    }
    return Plots.lines(name + ": bound on the training log-likelihood (A&R Figure 2)", "seconds",
        "bound (mean over the last epoch)", bounds, settings.out().resolve("ar-real-" + name));
  }
}
