package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.largecat.data.Dataset;
import org.largecat.fit.Fitter;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import org.largecat.train.LearningRateSearch;
import org.largecat.train.Method;
import org.largecat.train.TrainingDivergedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code largecat tune}: the learning-rate search of unbiased-scalable-softmax §4.1 ({@link
 * LearningRateSearch}) of plain SGD, for any method: by default each rate trains on the fraction as
 * {@code train} would (constant, under the stopping rule) and is scored on as many other rows;
 * {@code --paper} keeps §4.1's protocol (×0.9 per epoch, exactly --epochs, training log-loss).
 */
@Command(
    name = "tune",
    description = {
      "The learning-rate search of unbiased-scalable-softmax 4.1: plain SGD at 10^-3..10^3 on a"
          + " fraction of the data, each rate as train runs it (under the stopping rule) and scored"
          + " on as many rows outside the fraction; --paper: 4.1's protocol (x0.9 per epoch, exactly"
          + " --epochs, the training log-loss on the fraction)."
    })
final class TuneCommand implements Callable<Integer> {
  private final Largecat.Streams streams;

  @Spec CommandSpec spec;

  @Mixin SharedFitOptions shared;

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
      description =
          "Epochs per learning rate: at most E under the stopping rule, exactly E with --paper"
              + " (default: ${DEFAULT-VALUE}).")
  int epochs;

  @Option(
      names = "--paper",
      description =
          "The protocol of unbiased-scalable-softmax 4.1: x0.9 per epoch for exactly --epochs, the"
              + " log-loss on the fraction trained on. A small fraction can be separable where the"
              + " whole set is not, and then favours too large a rate.")
  boolean paper;

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
    if (method == null) {
      throw new ParameterException(
          spec.commandLine(), "tune needs --method: the method whose learning rate to search");
    }
    if (method.isFullBatch()) {
      throw new ParameterException(
          spec.commandLine(),
          method.label()
              + " has no learning rate to tune: it runs L-BFGS with a line search; train it"
              + " directly");
    }
    Dataset full = data.read(shared.trainFile, -1, -1);
    Kernels kernels = Kernels.get();
    long seed = Objects.requireNonNullElse(shared.sizes.seed, 1L);
    int threads =
        Objects.requireNonNullElse(shared.threads, Runtime.getRuntime().availableProcessors());
    err.printf(
        "tune: %s, %s %d epochs per learning rate on %.0f%% of %d examples%n",
        method.label(), paper ? "exactly" : "at most", epochs, 100 * fraction, full.rows());
    LearningRateSearch.Result result =
        LearningRateSearch.search(
            full,
            fraction,
            paper ? LearningRateSearch.Score.TRAINING : LearningRateSearch.Score.HELD_OUT,
            seed,
            kernels,
            threads,
            (subset, rate) -> {
              Fitter fitter =
                  shared.configure(Fitter.softmax()).step(Fitter.Step.SGD).learningRate(rate);
              return (paper ? fitter.epochs(epochs) : fitter.maxEpochs(epochs)).fit(subset).model();
            });
    String scored = paper ? "training" : "held-out";
    List<JsonOutputs.RateResult> table = new ArrayList<>();
    int best = -1;
    int second = -1;
    for (int g = 0; g < result.learningRates().length; g++) {
      double loss = result.logLoss()[g];
      err.printf(
          "tune: learning rate %g: %s log-loss %s%n",
          result.learningRates()[g],
          scored,
          Double.isFinite(loss) ? String.format("%.6g", loss) : "overflow");
      table.add(new JsonOutputs.RateResult(result.learningRates()[g], loss));
      if (result.learningRates()[g] == result.best()) {
        best = g;
      } else if (Double.isFinite(loss) && (second < 0 || loss < result.logLoss()[second])) {
        second = g;
      }
    }
    if (best < 0) {
      throw new TrainingDivergedException(
          "every learning rate of the grid overflowed on " + result.rows() + " examples");
    }
    if (json) {
      out.println(
          Json.line(
              new JsonOutputs.Tune(
                  method.label(),
                  result.rows(),
                  scored,
                  result.scoredRows(),
                  result.best(),
                  table)));
    } else {
      out.printf(
          Locale.ROOT,
          "%s: best learning rate %g: the lowest %s log-loss of the grid on %d examples%s%n",
          method.label(),
          result.best(),
          scored,
          result.scoredRows(),
          second < 0
              ? ""
              : String.format(
                  Locale.ROOT,
                  " (%.6g; next %g at %.6g)",
                  result.logLoss()[best],
                  result.learningRates()[second],
                  result.logLoss()[second]));
    }
    return 0;
  }
}
