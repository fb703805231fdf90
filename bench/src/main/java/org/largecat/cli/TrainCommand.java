package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.ModelFile;
import org.largecat.train.Method;
import org.largecat.train.SampledTrainer;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainer;
import org.largecat.train.Trainers;
import org.largecat.train.TrainingOptions;
import org.largecat.train.TrainingRun;

/** {@code largecat train}: fits a model with one of the sampled trainers and reports bound, speed and test scores. */
final class TrainCommand {
  static final String USAGE = """
             largecat train --train FILE [--test FILE] --method ar-softmax|ar-probit|ar-logistic|ove|exact-softmax
                            [--iterations T | --epochs E] [--batch B] [--sampled S] [--seed N] [--threads N]
                            [--step adaptive|sgd] [--learning-rate X] [--sampling per-example|shared]
                            [--sampling-power P] [--prior-variance V] [--init MODEL] [--scale-max] [--drop-unseen] [--model OUT] [--json]
                            [--format xc|libsvm] [--feature-base 0|1] [--label-base 0|1]
                                                       train; progress on standard error, a JSON summary with --json
      """;
  private static final List<String> VALUED = List.of("--train", "--test", "--method", "--iterations", "--epochs",
      "--batch", "--sampled", "--seed", "--threads", "--step", "--learning-rate", "--sampling-power", "--sampling", "--prior-variance", "--init", "--model", "--format", "--feature-base", "--label-base");

  private TrainCommand() {}

  /** The paper's random start, or a saved model to go on from ({@code --init}); local parameters start afresh. */
  private static LinearModel initialModel(Path init, Method method, Dataset train, TrainingOptions options) throws IOException {
    if (init == null) {
      LinearModel model = LinearModel.zeros(method.link(), train.classes(), train.columns());
      SampledTrainer.initialise(model, options);
      return model;
    }
    LinearModel model = ModelFile.read(init);
    if (model.link() != method.link() || model.classes() != train.classes() || model.columns() != train.columns()) {
      throw new IllegalArgumentException(init + ": a " + model.link() + " model with K = " + model.classes() + ", D = "
          + model.columns() + " cannot start " + method.label() + " on data with K = " + train.classes() + ", D = "
          + train.columns());
    }
    return model;
  }

  /**
   * {@code --step adaptive} (the default): A&R's schedule with ρ₀ = {@code --learning-rate} (0.02);
   * {@code --step sgd}: plain SGD at {@code --learning-rate} (0.01), ×0.9 per epoch.
   */
  private static StepSizeSchedule stepSize(CommandLine args) {
    StepSizeSchedule.Adaptive paper = StepSizeSchedule.PAPER;
    return switch (args.string("--step", "adaptive")) {
      case "adaptive" -> new StepSizeSchedule.Adaptive(args.positive("--learning-rate", paper.rho0()), paper.decay(),
          paper.every(), paper.smoothing());
      case "sgd" -> new StepSizeSchedule.Sgd(args.positive("--learning-rate", 0.01), 0.9);
      default -> throw args.usage("--step must be adaptive or sgd");
    };
  }

  static int run(String[] rest, PrintStream out, PrintStream err) throws IOException {
    CommandLine args = new CommandLine("train", rest, VALUED, List.of("--json", "--scale-max", "--drop-unseen"));
    Method method;
    try {
      method = Method.byLabel(args.string("--method", ""));
    } catch (IllegalArgumentException e) {
      throw args.usage(e.getMessage());
    }
    Dataset train = DataFiles.read(args, args.requiredPath("--train"), -1, -1);
    Path testFile = args.path("--test");
    Dataset test = testFile == null ? null : DataFiles.read(args, testFile, train.columns(), train.classes());
    if (test != null && args.has("--drop-unseen")) {
      int before = test.rows();
      test = Preprocessing.dropUnseenClasses(train, test);
      err.printf("train: dropped %d of %d test examples whose class never occurs in training%n", before - test.rows(), before);
    }
    if (args.has("--scale-max")) {
      if (test == null) {
        train = new Dataset(train.features().scaleColumns(train.features().columnMaxAbs()), train.labels(), train.classes());
      } else {
        Dataset[] scaled = Preprocessing.scaleByTrainingMaximum(train, test);
        train = scaled[0];
        test = scaled[1];
      }
    }
    TrainingOptions defaults = TrainingOptions.defaults(method);
    TrainingOptions options = defaults
        .withBatch(args.integer("--batch", defaults.batch(), 1), args.integer("--sampled", defaults.sampled(), 1))
        .withSeed(args.longValue("--seed", defaults.seed()))
        .withThreads(args.integer("--threads", defaults.threads(), 1))
        .withSamplingPower(args.has("--sampling-power") ? args.positive("--sampling-power", 0) : 0)
        .withStepSize(stepSize(args))
        .withPriorVariance(args.number("--prior-variance", 0));
    try {
      options = options.withSampling(Sampling.byLabel(args.string("--sampling", "per-example")));
    } catch (IllegalArgumentException e) {
      throw args.usage(e.getMessage());
    }
    Kernels kernels = Kernels.get();
    LinearModel model = initialModel(args.path("--init"), method, train, options);
    err.printf("train: %s on %d examples, D = %d, K = %d (%s), |B| = %d, |S| = %d, %d thread(s)%n", method.label(),
        train.rows(), train.columns(), train.classes(), train.features().getClass().getSimpleName(),
        options.batch(), options.sampled(), options.threads());
    if (args.has("--iterations") && args.has("--epochs")) {
      throw args.usage("give --iterations or --epochs, not both");
    }
    TrainingRun run;
    try (Trainer trainer = Trainers.create(train, model, options, kernels)) {
      int perEpoch = trainer.iterationsPerEpoch();
      int iterations = args.has("--iterations") ? args.integer("--iterations", 1, 1) : perEpoch * args.integer("--epochs", 5, 1);
      run = TrainingRun.run(trainer, iterations, 2, (t, total, bound, seconds) -> err.printf(
          "train: iteration %d/%d (epoch %.2f), bound %.6g, %.1f it/s%n", t, total, t / (double) perEpoch, bound, t / seconds));
    }
    Path modelFile = args.path("--model");
    if (modelFile != null) {
      ModelFile.write(model, modelFile);
      err.println("train: model written to " + modelFile);
    }
    Evaluation.Result scores = test == null ? null : Evaluation.evaluate(model, test, kernels, 5, options.threads());
    Json summary = new Json().put("method", method.label()).put("backend", kernels.describeChoice())
        .put("iterations", run.iterations()).put("seconds", run.seconds()).put("seconds_per_epoch", run.secondsPerEpoch())
        .put("train_bound", run.lastEpochBound())
        .put("test_loglik", scores == null ? null : scores.meanLogLikelihood())
        .put("test_accuracy", scores == null ? null : scores.accuracy())
        .put("test_top5", scores == null ? null : scores.topKAccuracy());
    if (args.has("--json")) {
      out.println(summary);
    } else {
      out.printf("%s: %d iterations in %.2f s (%.3g s per epoch); bound %.6g over the last epoch%n",
          method.label(), run.iterations(), run.seconds(), run.secondsPerEpoch(), run.lastEpochBound());
      if (scores != null) {
        out.printf("test: log-likelihood %.6f per example, accuracy %.4f, top-5 %.4f (%d examples)%n",
            scores.meanLogLikelihood(), scores.accuracy(), scores.topKAccuracy(), scores.examples());
      }
    }
    return 0;
  }
}
