package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.largecat.data.Dataset;
import org.largecat.doublesum.TrainingDivergedException;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.Method;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingOptions;

/**
 * {@code largecat tune}: the learning-rate search of unbiased-scalable-softmax §4.1: each initial
 * learning rate 10^{−3..3} runs for 50 epochs (×0.9 per epoch) on a seeded 10% of the training set,
 * and the one with the lowest training log-loss on that subset is kept. A run that overflows counts
 * as infinitely bad.
 */
final class TuneCommand {
  static final String USAGE = """
             largecat tune --train FILE --method METHOD [--fraction 0.1] [--epochs 50] [--batch B] [--sampled S]
                           [--ridge MU] [--seed N] [--threads N] [--json] [--format ...]
                                                       the learning-rate search of unbiased-scalable-softmax 4.1:
                                                       10^-3..10^3 on a fraction of the data, the best log-loss kept
      """;
  private static final double[] GRID = {1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3};

  private TuneCommand() {}

  static int run(String[] rest, PrintStream out, PrintStream err) throws IOException {
    List<String> valued = new ArrayList<>(List.of("--train", "--method", "--fraction", "--epochs", "--batch", "--sampled",
        "--ridge", "--seed", "--threads"));
    valued.addAll(DataFiles.OPTIONS);
    CommandLine args = new CommandLine("tune", rest.clone(), valued, List.of("--json"));
    Method method = TrainCommand.method(args);
    double fraction = args.positive("--fraction", 0.1);
    if (fraction > 1) {
      throw args.usage("--fraction " + fraction + " must be at most 1");
    }
    int epochs = args.integer("--epochs", 50, 1);
    Dataset full = DataFiles.read(args, args.requiredPath("--train"), -1, -1);
    Dataset train = full.subset(sample(full.rows(), fraction, args.longValue("--seed", 1)));
    Kernels kernels = Kernels.get();
    err.printf("tune: %s on %d of %d examples, %d epochs per learning rate%n", method.label(), train.rows(), full.rows(), epochs);
    double best = Double.NaN;
    double bestLoss = Double.POSITIVE_INFINITY;
    StringBuilder results = new StringBuilder("[");
    for (double rate : GRID) {
      CommandLine withRate = new CommandLine("tune", withLearningRate(rest, rate), withRateOption(valued), List.of("--json"));
      TrainingOptions options = TrainCommand.options(withRate, method);
      LinearModel model = TrainCommand.initialModel(train, options);
      double loss;
      try (Trainer trainer = TrainCommand.trainer(withRate, train, model, options, kernels)) {
        for (long t = (long) epochs * trainer.iterationsPerEpoch(); t > 0; t--) {
          trainer.step();
        }
        loss = -Evaluation.evaluate(model, train, kernels, 1, options.threads()).meanLogLikelihood();
      } catch (TrainingDivergedException e) {
        loss = Double.POSITIVE_INFINITY;
        err.println("tune: " + e.getMessage());
      }
      err.printf("tune: learning rate %g: training log-loss %.6g%n", rate, loss);
      results.append(results.length() > 1 ? ", " : "").append(new Json().put("learning_rate", rate)
          .put("log_loss", Double.isFinite(loss) ? loss : null));
      if (loss < bestLoss) {
        bestLoss = loss;
        best = rate;
      }
    }
    results.append(']');
    if (args.has("--json")) {
      out.println("{\"method\": \"" + method.label() + "\", \"best_learning_rate\": " + (Double.isNaN(best) ? "null" : best)
          + ", \"results\": " + results + "}");
    } else {
      out.printf("%s: best learning rate %g (training log-loss %.6g on %d examples)%n", method.label(), best, bestLoss,
          train.rows());
    }
    return 0;
  }

  /** A seeded sample of ⌈fraction·N⌉ distinct rows, in increasing order. */
  private static int[] sample(int rows, double fraction, long seed) {
    int size = (int) Math.ceil(fraction * rows);
    int[] order = new int[rows];
    SplittableRandom random = new SplittableRandom(seed ^ 0x3C6EF372FE94F82BL);
    for (int i = 0; i < rows; i++) {
      int j = random.nextInt(i + 1);
      order[i] = order[j];
      order[j] = i;
    }
    int[] picked = java.util.Arrays.copyOf(order, size);
    java.util.Arrays.sort(picked);
    return picked;
  }

  private static String[] withLearningRate(String[] rest, double rate) {
    String[] extended = java.util.Arrays.copyOf(rest, rest.length + 2);
    extended[rest.length] = "--learning-rate";
    extended[rest.length + 1] = Double.toString(rate);
    return extended;
  }

  private static List<String> withRateOption(List<String> valued) {
    List<String> all = new ArrayList<>(valued);
    all.add("--learning-rate");
    return all;
  }
}
