package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.Method;
import org.largecat.train.SampledTrainer;
import org.largecat.train.TrainingOptions;

/** {@code largecat reproduce NAME}: runs one of the papers' experiments end to end and prints ours beside the paper's. */
final class ReproduceCommand {
  static final String USAGE = """
             largecat reproduce ar-synthetic [--iterations T] [--quick] [--threads N] [--out DIR]
                                                       A&R §4.1: bound and probability error of A&R vs OVE on the
                                                       K = 10⁴ toy set (paper: 5·10⁵ iterations; --quick: 2·10⁴)
      """;

  private ReproduceCommand() {}

  static int run(String[] rest, PrintStream out, PrintStream err) throws IOException {
    if (rest.length == 0 || !rest[0].equals("ar-synthetic")) {
      throw new Largecat.UsageException("reproduce: expected an experiment name: ar-synthetic");
    }
    CommandLine args = new CommandLine("reproduce ar-synthetic", Arrays.copyOfRange(rest, 1, rest.length),
        List.of("--iterations", "--threads", "--out"), List.of("--quick"));
    int iterations = args.integer("--iterations", args.has("--quick") ? 20_000 : 500_000, 1);
    int threads = args.integer("--threads", Runtime.getRuntime().availableProcessors(), 1);
    Path outDir = Path.of(args.string("--out", "results/ar-synthetic"));
    Files.createDirectories(outDir);

    SyntheticSet toy = SyntheticData.arToy(10_000, 300_000, 1);
    // §4.1 keeps the classes that occur ("K = 9,035 effective classes").
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
    int[] labels = Arrays.stream(toy.data().labels()).map(k -> newLabel[k]).toArray();
    Dataset data = new Dataset(toy.data().features(), labels, effective);
    double[] truth = new double[effective];
    double[] frequency = new double[effective];
    for (int j = 0; j < effective; j++) {
      truth[j] = Math.exp(toy.biases()[kept.get(j)]);
      frequency[j] = counts[kept.get(j)] / (double) data.rows();
    }
    err.printf("reproduce ar-synthetic: N = %d, K = %d effective classes of 10⁴ (paper: 9,035), %d iterations, |B| = 500, |S| = 100%n",
        data.rows(), effective, iterations);

    Kernels kernels = Kernels.get();
    StringBuilder csv = new StringBuilder("method,iterations,seconds_per_epoch,bound,mae_truth,mae_frequency,paper_bound,paper_mae\n");
    out.printf("%-11s %12s %14s %14s %14s %14s %12s%n", "method", "s/epoch", "bound", "MAE vs truth", "MAE vs freq.",
        "paper bound", "paper MAE");
    for (Method method : new Method[] {Method.AR_SOFTMAX, Method.OVE}) {
      TrainingOptions options = TrainingOptions.defaults(method).withThreads(threads);
      LinearModel model = LinearModel.zeros(method.link(), effective, 0);
      SampledTrainer.initialise(model, options);
      long start = System.nanoTime();
      double epochBound;
      int perEpoch;
      try (SampledTrainer trainer = new SampledTrainer(data, model, options, kernels)) {
        perEpoch = trainer.iterationsPerEpoch();
        double sum = 0;
        int count = 0;
        for (int t = 1; t <= iterations; t++) {
          if ((t - 1) % perEpoch == 0) {
            sum = 0;
            count = 0;
          }
          sum += trainer.step();
          count++;
          if (t % 10_000 == 0) {
            err.printf("  %s: iteration %d/%d, bound %.4g%n", method.label(), t, iterations, sum / count);
          }
        }
        epochBound = sum / count;
      }
      double secondsPerEpoch = (System.nanoTime() - start) * 1e-9 / iterations * perEpoch;
      double[] p = softmax(model.biases());
      double maeTruth = meanAbsoluteDifference(p, truth);
      double maeFrequency = meanAbsoluteDifference(p, frequency);
      boolean ar = method == Method.AR_SOFTMAX;
      double paperBound = ar ? -2.62e6 : -1.40e9;
      double paperMae = ar ? 3.00e-6 : 3.65e-6;
      out.printf("%-11s %12.3f %14.4g %14.3g %14.3g %14.3g %12.3g%n", method.label(), secondsPerEpoch, epochBound,
          maeTruth, maeFrequency, paperBound, paperMae);
      csv.append(String.join(",", method.label(), Integer.toString(iterations), Double.toString(secondsPerEpoch),
          Double.toString(epochBound), Double.toString(maeTruth), Double.toString(maeFrequency),
          Double.toString(paperBound), Double.toString(paperMae))).append('\n');
    }
    Files.writeString(outDir.resolve("ar-synthetic.csv"), csv);
    err.println("reproduce ar-synthetic: table written to " + outDir.resolve("ar-synthetic.csv"));
    return 0;
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
