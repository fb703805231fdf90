package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.train.doublesum.DoubleSumOptions;
import org.largecat.train.doublesum.DoubleSumTrainers;
import org.largecat.train.TrainingDivergedException;
import org.largecat.eval.Evaluation;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.ModelFile;
import org.largecat.train.Method;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainer;
import org.largecat.train.Trainers;
import org.largecat.train.TrainingOptions;
import org.largecat.train.TrainingRun;

/** {@code largecat train}: fits a model with one of the sampled trainers and reports bound, speed and test scores. */
final class TrainCommand {
  static final String USAGE = """
             largecat train --train FILE [--test FILE] --method METHOD
                            [--iterations T | --epochs E] [--batch B] [--sampled S] [--seed N] [--threads N]
                            [--step adaptive|sgd] [--learning-rate X] [--ridge MU] [--sampling per-example|shared]
                            [--sampling-power P] [--prior-variance V] [--init MODEL] [--scale-max] [--drop-unseen]
                            [--model OUT] [--json] [--format xc|libsvm] [--feature-base 0|1] [--label-base 0|1]
                                                       train; progress on standard error, a JSON summary with --json.
                                                       METHOD: ar-softmax, ar-probit, ar-logistic, ove, exact-softmax
                                                       (A&R; adaptive step), nce, is (n = --batch 100, m = --sampled 5),
                                                       sgd, umax, isgd, umax-raman (one pair per iteration), isgd-batch
                                                       (n = --batch 5, m = --sampled 5); the last seven plain SGD x0.9
                                                       per epoch; --ridge is the double-sum methods' mu (default 0);
                                                       --prior-variance the others' N(0, V) prior (MAP)
      """;
  static final List<String> VALUED = List.of("--train", "--test", "--method", "--iterations", "--epochs",
      "--batch", "--sampled", "--seed", "--threads", "--step", "--learning-rate", "--ridge", "--sampling", "--sampling-power",
      "--prior-variance", "--init", "--model", "--format", "--feature-base", "--label-base");

  private TrainCommand() {}

  /**
   * {@code --step adaptive} (the default of the A&R methods): A&R's schedule with ρ₀ =
   * {@code --learning-rate} (0.02); {@code --step sgd} (the default and only choice of nce, is and
   * the double-sum methods): plain SGD at {@code --learning-rate}, ×0.9 per epoch, by default
   * {@link TrainingOptions#defaultSgdLearningRate}.
   */
  private static StepSizeSchedule stepSize(CommandLine args, Method method) {
    StepSizeSchedule.Adaptive paper = StepSizeSchedule.PAPER;
    boolean sgdOnly = method.isDoubleSum() || method == Method.NCE || method == Method.IMPORTANCE_SAMPLING;
    return switch (args.string("--step", sgdOnly ? "sgd" : "adaptive")) {
      case "adaptive" -> {
        if (sgdOnly) {
          throw args.usage(method.label() + " runs plain SGD (--step sgd)");
        }
        yield new StepSizeSchedule.Adaptive(args.positive("--learning-rate", paper.rho0()), paper.decay(),
            paper.every(), paper.smoothing());
      }
      case "sgd" -> new StepSizeSchedule.Sgd(args.positive("--learning-rate",
          TrainingOptions.defaultSgdLearningRate(method)), 0.9);
      default -> throw args.usage("--step must be adaptive or sgd");
    };
  }

  /** The training options of {@code method} from the command line. */
  static TrainingOptions options(CommandLine args, Method method) {
    TrainingOptions defaults = TrainingOptions.defaults(method);
    Sampling sampling;
    try {
      sampling = Sampling.byLabel(args.string("--sampling", Sampling.PER_EXAMPLE.label()));
    } catch (IllegalArgumentException e) {
      throw args.usage(e.getMessage());
    }
    if (method.isDoubleSum() && (args.has("--sampling") || args.has("--prior-variance"))) {
      throw args.usage("--sampling and --prior-variance apply to the sampled-bound methods, not " + method.label());
    }
    return defaults
        .withBatch(args.integer("--batch", defaults.batch(), 1), args.integer("--sampled", defaults.sampled(), 1))
        .withSeed(args.longValue("--seed", defaults.seed()))
        .withThreads(args.integer("--threads", defaults.threads(), 1))
        .withSamplingPower(args.has("--sampling-power") ? args.positive("--sampling-power", 0) : 0)
        .withStepSize(stepSize(args, method))
        .withSampling(sampling)
        .withPriorVariance(args.number("--prior-variance", 0));
  }

  /** A saved model to go on from ({@code --init}); local parameters start afresh. */
  private static LinearModel savedModel(Path init, Method method, Dataset train) throws IOException {
    LinearModel model = ModelFile.read(init);
    if (model.link() != method.link() || model.classes() != train.classes() || model.columns() != train.columns()) {
      throw new IllegalArgumentException(init + ": a " + model.link() + " model with K = " + model.classes() + ", D = "
          + model.columns() + " cannot start " + method.label() + " on data with K = " + train.classes() + ", D = "
          + train.columns());
    }
    return model;
  }

  /** The trainer of {@code options}, with {@code --ridge} for the double-sum methods. */
  static Trainer trainer(CommandLine args, Dataset train, LinearModel model, TrainingOptions options, Kernels kernels) {
    if (!options.method().isDoubleSum()) {
      if (args.has("--ridge")) {
        throw args.usage("--ridge applies to the double-sum methods only");
      }
      return Trainers.create(train, model, options, kernels);
    }
    DoubleSumOptions doubleSum = DoubleSumOptions.from(options);
    if (args.has("--ridge")) {
      doubleSum = doubleSum.withRidge(args.positive("--ridge", 0));
    }
    return DoubleSumTrainers.create(train, model, doubleSum, kernels);
  }

  /** The method named by {@code --method}. */
  static Method method(CommandLine args) {
    try {
      return Method.byLabel(args.string("--method", ""));
    } catch (IllegalArgumentException e) {
      throw args.usage(e.getMessage());
    }
  }

  static int run(String[] rest, PrintStream out, PrintStream err) throws IOException {
    CommandLine args = new CommandLine("train", rest, VALUED, List.of("--json", "--scale-max", "--drop-unseen"));
    Method method = method(args);
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
    TrainingOptions options = options(args, method);
    Kernels kernels = Kernels.get();
    Path init = args.path("--init");
    LinearModel model = init == null ? Trainers.initialModel(train, options) : savedModel(init, method, train);
    boolean onePair = method.isDoubleSum() && method != Method.IMPLICIT_SGD_BATCH;
    err.printf("train: %s on %d examples, D = %d, K = %d (%s), |B| = %d, |S| = %d, %d thread(s)%n", method.label(),
        train.rows(), train.columns(), train.classes(), train.features().getClass().getSimpleName(),
        onePair ? 1 : options.batch(), onePair ? 1 : options.sampled(), options.threads());
    if (args.has("--iterations") && args.has("--epochs")) {
      throw args.usage("give --iterations or --epochs, not both");
    }
    TrainingRun run;
    try (Trainer trainer = trainer(args, train, model, options, kernels)) {
      int perEpoch = trainer.iterationsPerEpoch();
      int iterations = args.has("--iterations") ? args.integer("--iterations", 1, 1) : perEpoch * args.integer("--epochs", 5, 1);
      run = TrainingRun.run(trainer, iterations, 2, (t, total, bound, seconds) -> err.printf(
          "train: iteration %d/%d (epoch %.2f), bound %.6g, %.1f it/s%n", t, total, t / (double) perEpoch, bound, t / seconds));
    } catch (TrainingDivergedException e) {
      err.println("largecat: train: " + e.getMessage());
      return 1;
    }
    Path modelFile = args.path("--model");
    if (modelFile != null) {
      ModelFile.write(model, modelFile);
      err.println("train: model written to " + modelFile);
    }
    Evaluation.Result scores = test == null ? null : Evaluation.evaluate(model, test, kernels, 5, options.threads());
    JsonOutputs.Train summary = new JsonOutputs.Train(method.label(), kernels.describeChoice(), run.iterations(),
        run.seconds(), run.secondsPerEpoch(), run.lastEpochBound(), scores == null ? null : scores.meanLogLikelihood(),
        scores == null ? null : scores.accuracy(), scores == null ? null : scores.topKAccuracy());
    if (args.has("--json")) {
      out.println(Json.line(summary));
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
