package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.largecat.data.Dataset;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.LearningRateSearch;
import org.largecat.train.Method;
import org.largecat.train.Trainers;
import org.largecat.train.TrainingOptions;

/**
 * {@code largecat tune}: the learning-rate search of unbiased-scalable-softmax §4.1 ({@link LearningRateSearch})
 * of the plain SGD schedule (×0.9 per epoch), for any method.
 */
final class TuneCommand {
  static final String USAGE = """
             largecat tune --train FILE --method METHOD [--fraction 0.1] [--epochs 50] [--batch B] [--sampled S]
                           [--ridge MU] [--seed N] [--threads N] [--json] [--format ...]
                                                       the learning-rate search of unbiased-scalable-softmax 4.1:
                                                       10^-3..10^3 on a fraction of the data, the best log-loss kept
      """;
  private static final List<String> OPTIONS = List.of("--train", "--method", "--fraction", "--epochs", "--batch",
      "--sampled", "--ridge", "--seed", "--threads");

  private TuneCommand() {}

  static int run(String[] rest, PrintStream out, PrintStream err) throws IOException {
    CommandLine args = new CommandLine("tune", rest, withData(OPTIONS), List.of("--json"));
    Method method = TrainCommand.method(args);
    double fraction = args.positive("--fraction", 0.1);
    int epochs = args.integer("--epochs", 50, 1);
    Dataset full = DataFiles.read(args, args.requiredPath("--train"), -1, -1);
    Kernels kernels = Kernels.get();
    int threads = TrainCommand.options(args, method).threads();
    err.printf("tune: %s, %d epochs per learning rate on %.0f%% of %d examples%n", method.label(), epochs,
        100 * fraction, full.rows());
    LearningRateSearch.Result result = LearningRateSearch.search(full, fraction, epochs, args.longValue("--seed", 1),
        kernels, threads, (subset, rate) -> {
          CommandLine withRate = new CommandLine("tune", withLearningRate(rest, rate), withData(withRateOption()),
              List.of("--json"));
          TrainingOptions options = TrainCommand.options(withRate, method);
          LinearModel model = Trainers.initialModel(subset, options);
          return new LearningRateSearch.Run(model, TrainCommand.trainer(withRate, subset, model, options, kernels));
        });
    List<JsonOutputs.RateResult> table = new ArrayList<>();
    for (int g = 0; g < result.learningRates().length; g++) {
      double loss = result.logLoss()[g];
      err.printf("tune: learning rate %g: training log-loss %s%n", result.learningRates()[g],
          Double.isFinite(loss) ? String.format("%.6g", loss) : "overflow");
      table.add(new JsonOutputs.RateResult(result.learningRates()[g], loss));
    }
    if (args.has("--json")) {
      out.println(Json.line(new JsonOutputs.Tune(method.label(), result.rows(), result.best(), table)));
    } else {
      out.printf("%s: best learning rate %g on %d examples%n", method.label(), result.best(), result.rows());
    }
    return 0;
  }

  private static String[] withLearningRate(String[] rest, double rate) {
    String[] extended = java.util.Arrays.copyOf(rest, rest.length + 4);
    extended[rest.length] = "--step";
    extended[rest.length + 1] = "sgd";
    extended[rest.length + 2] = "--learning-rate";
    extended[rest.length + 3] = Double.toString(rate);
    return extended;
  }

  private static List<String> withRateOption() {
    List<String> all = new ArrayList<>(OPTIONS);
    all.add("--step");
    all.add("--learning-rate");
    return all;
  }

  private static List<String> withData(List<String> names) {
    List<String> all = new ArrayList<>(names);
    all.addAll(DataFiles.OPTIONS);
    return all;
  }
}
