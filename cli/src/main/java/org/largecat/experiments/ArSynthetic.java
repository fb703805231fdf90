package org.largecat.experiments;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.fit.Trainers;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingRun;
import org.largecat.train.sampled.SampledTrainer;

/**
 * A&R §4.1: the K = 10⁴, N = 3·10⁵ toy set with p_k ∝ U², bias-only softmax fitted by A&R and by
 * OVE with |B| = 500, |S| = 100; the bound over the last epoch and the mean absolute error of the
 * fitted probabilities, against the truth and against the empirical frequencies (the maximum
 * likelihood solution both converge to). Classes that never occur are dropped first, as the paper
 * does ("K = 9,035 effective classes").
 */
public final class ArSynthetic {
  private ArSynthetic() {}

  /**
   * Each method runs under the experiments' stopping rule, at most the paper's 5·10⁵ iterations
   * (quick: 2·10⁴) in whole epochs.
   */
  static ExperimentResult run(ExperimentSettings settings) {
    int iterations = settings.iterations(500_000, 20_000);
    int threads = settings.threads();
    PrintStream err = settings.err();
    SyntheticSet toy = SyntheticData.arToy(10_000, 300_000, 1);
    int[] counts = toy.data().classCounts();
    int[] newLabel = new int[counts.length];
    List<Integer> kept = new ArrayList<>();
    for (int k = 0; k < counts.length; k++) {
      newLabel[k] = counts[k] > 0 ? kept.size() : -1;
      if (counts[k] > 0) {
        kept.add(k);
      }
    }
    int effective = kept.size();
    Dataset data =
        new Dataset(
            toy.data().features(),
            Arrays.stream(toy.data().labels()).map(k -> newLabel[k]).toArray(),
            effective);
    double[] truth = new double[effective];
    double[] frequency = new double[effective];
    for (int j = 0; j < effective; j++) {
      truth[j] = Math.exp(toy.biases()[kept.get(j)]);
      frequency[j] = counts[kept.get(j)] / (double) data.rows();
    }
    err.printf(
        "ar-synthetic: N = %d, K = %d effective classes of 10⁴ (paper: 9,035), at most %d iterations, |B| = 500, |S| = 100%n",
        data.rows(), effective, iterations);
    ResultTable table =
        new ResultTable(
            "ar-synthetic",
            List.of(
                "method",
                "iterations",
                "epochs",
                "stopped_because",
                "converged",
                "seconds_per_epoch",
                "bound",
                "mae_truth",
                "mae_frequency",
                "paper_bound",
                "paper_mae",
                "paper_seconds_per_epoch"));
    Kernels kernels = Kernels.get();
    for (Method method : new Method[] {Method.AR_SOFTMAX, Method.OVE}) {
      SampledSpec options =
          SampledSpec.builder(method).threads(threads).sampling(settings.sampling()).build();
      LinearModel model = LinearModel.zeros(method.link(), effective, 0);
      SampledTrainer.initialise(model, options);
      RunEnd.Ruled ruled;
      try (Trainer trainer = Trainers.create(data, model, options, kernels)) {
        ruled =
            RunEnd.underRule(
                trainer, iterations, new Progress(err, "ar-synthetic " + method.label()));
      }
      TrainingRun run = ruled.run();
      double[] p = softmax(model.biases());
      boolean ar = method == Method.AR_SOFTMAX;
      table.add(
          method.label(),
          run.iterations(),
          ruled.end().epochs(),
          ruled.end().stoppedBecause(),
          ruled.end().converged(),
          run.secondsPerEpoch(),
          run.lastEpochBound(),
          meanAbsoluteDifference(p, truth),
          meanAbsoluteDifference(p, frequency),
          ar ? -2.62e6 : -1.40e9,
          ar ? 3.00e-6 : 3.65e-6,
          ar ? 0.196 * 60 : 0.189 * 60);
    }
    return ExperimentResult.of(table, List.of());
  }

  private static double[] softmax(double[] b) {
    double max = Arrays.stream(b).max().orElse(0);
    double[] p = Arrays.stream(b).map(v -> Math.exp(v - max)).toArray();
    double sum = Arrays.stream(p).sum();
    return Arrays.stream(p).map(v -> v / sum).toArray();
  }

  private static double meanAbsoluteDifference(double[] a, double[] b) {
    double total = 0;
    for (int i = 0; i < a.length; i++) {
      total += Math.abs(a[i] - b[i]);
    }
    return total / a.length;
  }
}
