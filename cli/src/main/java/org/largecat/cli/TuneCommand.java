package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.largecat.data.Dataset;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.LearningRateSearch;
import org.largecat.train.Method;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainers;
import org.largecat.train.TrainingOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code largecat tune}: the learning-rate search of unbiased-scalable-softmax §4.1 ({@link
 * LearningRateSearch}) of the plain SGD schedule (×0.9 per epoch), for any method.
 */
@Command(
    name = "tune",
    description = {
      "The learning-rate search of unbiased-scalable-softmax 4.1: plain SGD at"
          + " 10^-3..10^3 on a fraction of the data, the best training log-loss kept."
    })
final class TuneCommand implements Callable<Integer> {
  private final Largecat.Streams streams;

  @Spec CommandSpec spec;

  @Mixin TrainCommand.Shared shared;

  @Mixin DataFiles data;

  @Option(
      names = "--fraction",
      paramLabel = "F",
      converter = OptionTypes.PositiveNumber.class,
      defaultValue = "0.1",
      description = "The fraction of the training set to search on (default: ${DEFAULT-VALUE}).")
  double fraction;

  @Option(
      names = "--epochs",
      paramLabel = "E",
      converter = OptionTypes.Count.class,
      defaultValue = "50",
      description = "Epochs per learning rate (default: ${DEFAULT-VALUE}).")
  int epochs;

  @Option(names = "--json", description = "Print the results as JSON.")
  boolean json;

  TuneCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws IOException {
    PrintStream out = streams.out();
    PrintStream err = streams.err();
    Method method = shared.method;
    if (method.isFullBatch()) {
      throw new ParameterException(
          spec.commandLine(),
          method.label()
              + " has no learning rate to tune: it runs L-BFGS with a line search; train it"
              + " directly");
    }
    Dataset full = data.read(shared.trainFile, -1, -1);
    Kernels kernels = Kernels.get();
    TrainingOptions common = shared.apply(TrainingOptions.defaults(method), full, err);
    int threads = common.threads();
    err.printf(
        "tune: %s, %d epochs per learning rate on %.0f%% of %d examples%n",
        method.label(), epochs, 100 * fraction, full.rows());
    LearningRateSearch.Result result =
        LearningRateSearch.search(
            full,
            fraction,
            epochs,
            common.seed(),
            kernels,
            threads,
            (subset, rate) -> {
              TrainingOptions options = common.withStepSize(new StepSizeSchedule.Sgd(rate, 0.9));
              LinearModel model = Trainers.initialModel(subset, options);
              return new LearningRateSearch.Run(
                  model, shared.trainer(subset, model, options, kernels));
            });
    List<JsonOutputs.RateResult> table = new ArrayList<>();
    for (int g = 0; g < result.learningRates().length; g++) {
      double loss = result.logLoss()[g];
      err.printf(
          "tune: learning rate %g: training log-loss %s%n",
          result.learningRates()[g],
          Double.isFinite(loss) ? String.format("%.6g", loss) : "overflow");
      table.add(new JsonOutputs.RateResult(result.learningRates()[g], loss));
    }
    if (json) {
      out.println(
          Json.line(new JsonOutputs.Tune(method.label(), result.rows(), result.best(), table)));
    } else {
      out.printf(
          "%s: best learning rate %g on %d examples%n",
          method.label(), result.best(), result.rows());
    }
    return 0;
  }
}
