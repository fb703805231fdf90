package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.eval.Evaluation;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.ModelFile;
import org.largecat.model.ScoreModel;
import org.largecat.train.Method;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.StoppingRule;
import org.largecat.train.Trainer;
import org.largecat.train.Trainers;
import org.largecat.train.TrainingDivergedException;
import org.largecat.train.TrainingOptions;
import org.largecat.train.TrainingRun;
import org.largecat.train.WatchedTrainingRows;
import org.largecat.train.doublesum.DoubleSumOptions;
import org.largecat.train.doublesum.DoubleSumTrainers;
import org.largecat.train.fullbatch.AutomaticMethod;
import org.largecat.train.fullbatch.FullBatchOptions;
import org.largecat.train.fullbatch.FullBatchRun;
import org.largecat.train.fullbatch.FullBatchSoftmax;
import org.largecat.train.fullbatch.LbfgsResult;
import org.largecat.train.fullbatch.LbfgsSettings;
import org.largecat.train.sampled.FactorizedTrainer;
import org.largecat.train.sampled.FactorizedTrainers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code largecat train}: fits a model with one of the sampled or double-sum trainers, or the
 * full-batch solver, and reports bound, speed and test scores.
 */
@Command(
    name = "train",
    description = {
      "Trains a model; progress on standard error, a JSON summary with --json.",
      "METHOD: ar-softmax, ar-probit, ar-logistic, ove, exact-softmax-sgd (A&R; adaptive step), nce, is (n = --batch 100,"
          + " m = --sampled 5), sgd, umax, isgd, umax-raman (one pair per iteration), isgd-batch (n = --batch 5,"
          + " m = --sampled 5); the last seven plain SGD x0.9 per epoch. exact-softmax: full-batch L-BFGS on the"
          + " exact log-likelihood until it converges (--tol, --max-epochs, --max-seconds)."
    })
final class TrainCommand implements Callable<Integer> {
  private final Largecat.Streams streams;

  @Spec CommandSpec spec;

  @Mixin Shared shared;

  @Mixin DataFiles data;

  @Mixin StoppingOptions stopping;

  @Option(names = "--test", paramLabel = "FILE", description = "A test set to score the model on.")
  Path testFile;

  @Option(
      names = "--iterations",
      paramLabel = "T",
      converter = OptionTypes.Count.class,
      description = "Steps to take, instead of --epochs.")
  Integer iterations;

  @Option(
      names = "--epochs",
      paramLabel = "E",
      converter = OptionTypes.Count.class,
      description = "Exactly E passes over the training set, instead of the stopping rule.")
  Integer epochs;

  @Option(
      names = "--validation-fraction",
      paramLabel = "F",
      converter = OptionTypes.PositiveNumber.class,
      description =
          "Hold out this fraction of the training set, drawn with --seed, and let the stopping rule"
              + " watch its mean log-likelihood instead of the bound (default: none).")
  Double validationFraction;

  @Mixin StepOptions stepOptions;

  @Mixin SamplingOptions samplingOptions;

  @Option(
      names = "--prior-variance",
      paramLabel = "V",
      converter = OptionTypes.NonNegativeNumber.class,
      defaultValue = "0",
      description =
          "A N(0, V) prior on the weights, MAP (default: ${DEFAULT-VALUE}, maximum likelihood).")
  double priorVariance;

  @Option(names = "--init", paramLabel = "MODEL", description = "A saved model to start from.")
  Path init;

  @Option(
      names = "--rank",
      paramLabel = "R",
      converter = OptionTypes.Count.class,
      description =
          "Fit the factorized model psi_k = u_k . (sum_j x_j v_j) + b_k with embeddings of width R"
              + " ((K + D) R weights) instead of the linear one (K D); sampled-bound methods only.")
  Integer rank;

  @Option(
      names = "--scale-max",
      description = "Divide each feature by its largest absolute value in training.")
  boolean scaleMax;

  @Option(
      names = "--drop-unseen",
      description = "Drop the test examples whose class never occurs in training.")
  boolean dropUnseen;

  @Option(names = "--model", paramLabel = "OUT", description = "Where to write the trained model.")
  Path modelFile;

  @Option(names = "--json", description = "Print a JSON summary.")
  boolean json;

  TrainCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  /**
   * The options train and tune share, and the trainer they make: {@code --ridge} is the double-sum
   * methods' mu, the others take no ridge.
   */
  static final class Shared {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(
        names = "--train",
        paramLabel = "FILE",
        required = true,
        description = "The training set.")
    Path trainFile;

    @Option(
        names = "--method",
        paramLabel = "METHOD",
        description =
            "The training method; train takes auto (the default): exact-softmax when its"
                + " full-batch solver fits the heap and an estimated time, else ar-softmax.")
    Method method;

    @Mixin BatchOptions sizes;

    @Option(
        names = "--threads",
        paramLabel = "N",
        converter = OptionTypes.Count.class,
        description = "Worker threads (default: one per core).")
    Integer threads;

    @Option(
        names = "--ridge",
        paramLabel = "MU",
        converter = OptionTypes.PositiveNumber.class,
        description = "The double-sum methods' mu (default: 0).")
    Double ridge;

    /**
     * {@code defaults} with the sizes, seed and threads given. The sizes are those the trainer will
     * use on {@code train}: |B| at most N and |S| at most the K − 1 classes besides the label
     * (exactly K − 1 for exact-softmax-sgd); a size given beyond these, or to exact-softmax-sgd, is
     * said once on {@code err}; one the one-pair methods do not take is an error.
     */
    TrainingOptions apply(TrainingOptions defaults, Dataset train, PrintStream err) {
      Method method = defaults.method();
      boolean onePair = method.isDoubleSum() && method != Method.IMPLICIT_SGD_BATCH;
      if (onePair && given(sizes.batch, sizes.sampled)) {
        throw usage(
            "--batch and --sampled do not apply to "
                + method.label()
                + ", which takes one datapoint and one class per iteration");
      }
      int others = train.classes() - 1;
      Integer sampled = sizes.sampled;
      if (method == Method.EXACT_SOFTMAX_SGD && sampled != null && sampled != others) {
        err.printf(
            "%s: --sampled %d is ignored: exact-softmax-sgd sums over all %d classes besides the"
                + " label%n",
            command.name(), sampled, others);
      }
      return defaults
          .withBatch(
              onePair
                  ? 1
                  : fitted(
                      "--batch",
                      sizes.batch,
                      defaults.batch(),
                      train.rows(),
                      "training examples",
                      err),
              onePair
                  ? 1
                  : fitted(
                      "--sampled",
                      method == Method.EXACT_SOFTMAX_SGD ? null : sampled,
                      method == Method.EXACT_SOFTMAX_SGD ? others : defaults.sampled(),
                      others,
                      "classes besides the label (K = " + train.classes() + ")",
                      err))
          .withSeed(Objects.requireNonNullElse(sizes.seed, defaults.seed()))
          .withThreads(Objects.requireNonNullElse(threads, defaults.threads()));
    }

    /**
     * The size {@code given} (else {@code byDefault}) capped at {@code most}, saying on {@code err}
     * when a size the user gave is capped.
     */
    private int fitted(
        String option, Integer given, int byDefault, int most, String what, PrintStream err) {
      int size = Objects.requireNonNullElse(given, byDefault);
      if (size <= most || most < 1) {
        return size;
      }
      if (given != null) {
        err.printf(
            "%s: %s %d is more than the %d %s; using %d%n",
            command.name(), option, given, most, what, most);
      }
      return most;
    }

    private static boolean given(Object... options) {
      return Arrays.stream(options).anyMatch(Objects::nonNull);
    }

    private ParameterException usage(String message) {
      return new ParameterException(command.commandLine(), message);
    }

    /** The trainer of {@code options}, with {@code --ridge} for the double-sum methods. */
    Trainer trainer(Dataset train, LinearModel model, TrainingOptions options, Kernels kernels) {
      if (!options.method().isDoubleSum()) {
        if (ridge != null) {
          throw usage("--ridge applies to the double-sum methods only");
        }
        return Trainers.create(train, model, options, kernels);
      }
      DoubleSumOptions doubleSum = DoubleSumOptions.from(options);
      if (ridge != null) {
        doubleSum = doubleSum.withRidge(ridge);
      }
      return DoubleSumTrainers.create(train, model, doubleSum, kernels);
    }
  }

  /** The training options of {@code method} on {@code train} from the command line. */
  private TrainingOptions options(Method method, Dataset train, PrintStream err) {
    if (method.isDoubleSum() && (given("--sampling") || given("--prior-variance"))) {
      throw usage(
          "--sampling and --prior-variance apply to the sampled-bound methods, not "
              + method.label());
    }
    return samplingOptions
        .apply(shared.apply(TrainingOptions.defaults(method), train, err))
        .withStepSize(stepOptions.schedule(method, rank != null, fixedLength()))
        .withPriorVariance(priorVariance);
  }

  /** Whether --epochs or --iterations sets the run's length, instead of the stopping rule. */
  private boolean fixedLength() {
    return iterations != null || epochs != null;
  }

  private boolean given(String option) {
    return spec.commandLine().getParseResult().hasMatchedOption(option);
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /**
   * A saved model to go on from ({@code --init}), of the kind {@code rank} asks for (null: linear);
   * local parameters start afresh.
   */
  private static ScoreModel savedModel(Path init, Method method, Dataset train, Integer rank)
      throws IOException {
    ScoreModel model = ModelFile.readScoreModel(init);
    Integer saved = model instanceof FactorizedModel f ? f.rank() : null;
    if (!Objects.equals(saved, rank)) {
      throw new IllegalArgumentException(
          init
              + ": a "
              + (saved == null ? "linear model" : "factorized model of rank " + saved)
              + " cannot start a run "
              + (rank == null ? "of the linear model" : "with --rank " + rank));
    }
    if (model.link() != method.link()
        || model.classes() != train.classes()
        || model.columns() != train.columns()) {
      throw new IllegalArgumentException(
          init
              + ": a "
              + model.link()
              + " model with K = "
              + model.classes()
              + ", D = "
              + model.columns()
              + " cannot start "
              + method.label()
              + " on data with K = "
              + train.classes()
              + ", D = "
              + train.columns());
    }
    return model;
  }

  /**
   * {@code e} with the step that diverged and the fix, unless its message gives them; nothing has
   * been saved.
   */
  private static TrainingDivergedException diverged(
      TrainingDivergedException e, StepSizeSchedule step) {
    String message = e.getMessage();
    if (!message.contains("--learning-rate")) {
      message +=
          switch (step) {
            case StepSizeSchedule.Adaptive a ->
                String.format(
                    Locale.ROOT,
                    "; the adaptive step started at rho0 = %g: give a smaller --learning-rate",
                    a.rho0());
            case StepSizeSchedule.Sgd sgd ->
                String.format(
                    Locale.ROOT,
                    "; plain SGD at learning rate %g: give a smaller --learning-rate",
                    sgd.learningRate());
          };
    }
    TrainingDivergedException told =
        new TrainingDivergedException(message + "; no model was written");
    told.initCause(e);
    return told;
  }

  /**
   * What a run did, whichever trainer ran it: the model, the sizes used, iterations, passes over
   * the data, why it stopped, the objective it reports, and what the stopping rule watched (null:
   * nothing) with, when it watched rows, their last mean log-likelihood and their number.
   */
  private record Fit(
      ScoreModel model,
      int batch,
      int sampled,
      int threads,
      int iterations,
      double epochs,
      TrainingRun.Stop stoppedBecause,
      Boolean converged,
      double seconds,
      double secondsPerEpoch,
      double bound,
      StoppingOptions.Watched watched,
      Double watchedLoglik,
      Integer watchedRows) {}

  @Override
  public Integer call() throws IOException {
    PrintStream out = streams.out();
    PrintStream err = streams.err();
    Method method = shared.method;
    if (method != null && method.isFullBatch()) {
      refuseWhatFullBatchDoesNotTake(method);
    }
    if (iterations != null && epochs != null) {
      throw usage("give --iterations or --epochs, not both");
    }
    boolean fixed = fixedLength();
    if (fixed
        && (given("--tol")
            || given("--patience")
            || given("--max-epochs")
            || given("--max-seconds")
            || given("--step-reductions")
            || given("--validation-fraction"))) {
      throw usage(
          "--tol, --patience, --max-epochs, --max-seconds, --step-reductions and"
              + " --validation-fraction set the stopping rule, which runs only without --epochs and"
              + " --iterations");
    }
    if (validationFraction != null && validationFraction >= 1) {
      throw usage("--validation-fraction " + validationFraction + " must be below 1");
    }
    OutputFiles.check(modelFile);
    // Choosing the kernels links native libraries, reading the data parses text: on two cores the
    // two overlap.
    CompletableFuture<Kernels> selected = CompletableFuture.supplyAsync(Kernels::get);
    Dataset train = data.read(shared.trainFile, -1, -1);
    Dataset test = testFile == null ? null : data.read(testFile, train.columns(), train.classes());
    if (test != null && dropUnseen) {
      int before = test.rows();
      test = Preprocessing.dropUnseenClasses(train, test);
      err.printf(
          "train: dropped %d of %d test examples whose class never occurs in training%n",
          before - test.rows(), before);
    }
    if (scaleMax) {
      if (test == null) {
        train =
            new Dataset(
                train.features().scaleColumns(train.features().columnMaxAbs()),
                train.labels(),
                train.classes());
      } else {
        Dataset[] scaled = Preprocessing.scaleByTrainingMaximum(train, test);
        train = scaled[0];
        test = scaled[1];
      }
    }
    Kernels kernels = selected.join();
    if (method == null) {
      method = automatic(train, err);
    }
    Fit fit =
        method.isFullBatch()
            ? fullBatch(method, train, kernels, err)
            : stochastic(method, train, fixed, kernels, err);
    ScoreModel model = fit.model();
    if (modelFile != null) {
      ModelFile.write(model, modelFile);
      err.println("train: model written to " + modelFile);
    }
    Evaluation.Result scores =
        test == null ? null : Evaluation.evaluate(model, test, kernels, 5, fit.threads());
    JsonOutputs.Train summary =
        new JsonOutputs.Train(
            method.label(),
            kernels.describeChoice(),
            fit.batch(),
            fit.sampled(),
            fit.iterations(),
            fit.epochs(),
            fit.stoppedBecause().name().toLowerCase(Locale.ROOT),
            fit.converged(),
            fit.seconds(),
            fit.secondsPerEpoch(),
            fit.bound(),
            fit.watched() == null ? null : fit.watched().json(),
            fit.watchedLoglik(),
            fit.watchedRows(),
            scores == null ? null : scores.meanLogLikelihood(),
            scores == null ? null : scores.accuracy(),
            scores == null ? null : scores.topKAccuracy());
    if (json) {
      out.println(Json.line(summary));
    } else {
      out.printf(
          "%s: %d iterations (%.3g epochs, %s) in %.2f s (%.3g s per epoch); %s %.6g%n",
          method.label(),
          fit.iterations(),
          fit.epochs(),
          fit.stoppedBecause().name().toLowerCase(Locale.ROOT).replace('_', ' '),
          fit.seconds(),
          fit.secondsPerEpoch(),
          method.isFullBatch() ? "objective" : "bound over the last epoch",
          fit.bound());
      if (scores != null) {
        out.printf(
            "test: log-likelihood %.6f per example, accuracy %.4f, top-5 %.4f (%d examples)%n",
            scores.meanLogLikelihood(),
            scores.accuracy(),
            scores.topKAccuracy(),
            scores.examples());
      }
    }
    return 0;
  }

  /** A sampled-bound or double-sum trainer under {@link TrainingRun}. */
  private Fit stochastic(
      Method method, Dataset train, boolean fixed, Kernels kernels, PrintStream err)
      throws IOException {
    StoppingRule rule = stopping.rule();
    Dataset validation = null;
    if (validationFraction != null) {
      long seed =
          shared.sizes.seed != null ? shared.sizes.seed : TrainingOptions.defaults(method).seed();
      Dataset[] split = Preprocessing.holdOut(train, validationFraction, seed);
      train = split[0];
      validation = split[1];
      err.printf(
          "train: %d examples held out; the stopping rule watches their log-likelihood%n",
          validation.rows());
    }
    if (rank != null && method.isDoubleSum()) {
      throw usage("--rank applies to the sampled-bound methods, not " + method.label());
    }
    TrainingOptions options = options(method, train, err);
    ScoreModel model =
        init != null
            ? savedModel(init, method, train, rank)
            : rank == null
                ? Trainers.initialModel(train, options)
                : FactorizedTrainer.initialModel(train, options, rank);
    err.printf(
        "train: %s%s on %d examples, D = %d, K = %d (%s), |B| = %d, |S| = %d, %d thread(s)%n",
        method.label(),
        rank == null ? "" : ", rank " + rank,
        train.rows(),
        train.columns(),
        train.classes(),
        train.features().getClass().getSimpleName(),
        options.batch(),
        options.sampled(),
        options.threads());
    StoppingOptions.Watched watched = fixed ? null : StoppingOptions.Watched.TRAIN_BOUND;
    DoubleSupplier rowsLikelihood = null; // null: the rule watches the epoch-mean bound
    Integer watchedRows = null;
    if (!fixed && validation != null) {
      watched = StoppingOptions.Watched.HELD_OUT_ROWS;
      rowsLikelihood = heldOutLikelihood(model, validation, kernels, options.threads());
      watchedRows = validation.rows();
    } else if (!fixed && WatchedTrainingRows.watchedFor(method)) {
      WatchedTrainingRows rows = watchedTrainingRows(model, train, options, kernels, err);
      watched = StoppingOptions.Watched.TRAINING_ROWS;
      rowsLikelihood = rows;
      watchedRows = rows.rows();
    }
    TrainingRun run;
    int perEpoch;
    try (Trainer trainer =
        switch (model) {
          case LinearModel linear -> shared.trainer(train, linear, options, kernels);
          case FactorizedModel factorized ->
              FactorizedTrainers.create(train, factorized, options, kernels);
        }) {
      perEpoch = trainer.iterationsPerEpoch();
      run =
          fixed
              ? TrainingRun.run(
                  trainer,
                  iterations != null ? iterations : perEpoch * epochs,
                  2,
                  (t, total, bound, seconds) ->
                      err.printf(
                          "train: iteration %d/%d (epoch %.2f), bound %.6g, %.1f it/s%n",
                          t, total, t / (double) perEpoch, bound, t / seconds))
              : TrainingRun.until(
                  trainer, rule, rowsLikelihood, stopping.progress("train", watched, err));
    } catch (TrainingDivergedException e) {
      throw diverged(e, options.stepSize());
    }
    stopping.reportUnconverged("train", run, err);
    return new Fit(
        model,
        options.batch(),
        options.sampled(),
        options.threads(),
        run.iterations(),
        run.epochs(perEpoch),
        run.stoppedBecause(),
        run.converged(),
        run.seconds(),
        run.secondsPerEpoch(),
        run.lastEpochBound(),
        watched,
        watchedRows == null ? null : run.lastWatched(),
        watchedRows);
  }

  /** The mean log-likelihood of the held-out slice, as the stopping rule watches it. */
  private static DoubleSupplier heldOutLikelihood(
      ScoreModel model, Dataset heldOut, Kernels kernels, int threads) {
    return () -> Evaluation.evaluate(model, heldOut, kernels, 1, threads).meanLogLikelihood();
  }

  /** The training rows the stopping rule watches when no slice is held out, said on {@code err}. */
  private static WatchedTrainingRows watchedTrainingRows(
      ScoreModel model, Dataset train, TrainingOptions options, Kernels kernels, PrintStream err) {
    WatchedTrainingRows watched = new WatchedTrainingRows(model, train, options, kernels);
    err.printf(
        "train: the stopping rule watches the exact log-likelihood of %d training rows%n",
        watched.rows());
    return watched;
  }

  /**
   * The options of the stochastic trainers that the full-batch solver does not take are usage
   * errors; so are those of the stopping rule it does not have.
   */
  private void refuseWhatFullBatchDoesNotTake(Method method) {
    String refused = givenOnlyForStochastic();
    if (!refused.isEmpty()) {
      throw usage(
          refused
              + (refused.contains(",") ? " do" : " does")
              + " not apply to "
              + method.label()
              + ", which runs L-BFGS on the whole training set until it converges (--tol,"
              + " --max-epochs, --max-seconds)");
    }
  }

  /** The options given that only the stochastic methods take, joined by commas. */
  private String givenOnlyForStochastic() {
    return Stream.of(
            "--batch",
            "--sampled",
            "--step",
            "--learning-rate",
            "--sampling",
            "--sampling-power",
            "--epochs",
            "--iterations",
            "--rank",
            "--patience",
            "--step-reductions",
            "--validation-fraction",
            "--ridge")
        .filter(this::given)
        .collect(Collectors.joining(", "));
  }

  /**
   * {@code --method auto}: {@link AutomaticMethod}'s choice, or ar-softmax when an option only the
   * stochastic methods take is given. The choice and its reason go to {@code err}.
   */
  private Method automatic(Dataset train, PrintStream err) {
    String stochasticOnly = givenOnlyForStochastic();
    AutomaticMethod choice =
        stochasticOnly.isEmpty()
            ? AutomaticMethod.choose(
                train,
                Objects.requireNonNullElse(
                    shared.threads, Runtime.getRuntime().availableProcessors()),
                Objects.requireNonNullElse(stopping.maxSeconds, AutomaticMethod.DEFAULT_SECONDS))
            : new AutomaticMethod(
                Method.AR_SOFTMAX, stochasticOnly + " given, which exact-softmax does not take");
    err.printf("train: --method auto chose %s: %s%n", choice.method().label(), choice.reason());
    return choice.method();
  }

  /**
   * The full-batch solver: {@code --tol} is its relative-change tolerance, {@code --max-epochs} the
   * most passes over the data, {@code --max-seconds} its time limit; otherwise {@link
   * FullBatchOptions#defaults}.
   */
  private Fit fullBatch(Method method, Dataset train, Kernels kernels, PrintStream err)
      throws IOException {
    FullBatchOptions defaults = FullBatchOptions.defaults(train.columns(), train.classes());
    LbfgsSettings settings = defaults.lbfgs();
    if (given("--tol")) {
      settings = settings.withRelativeTolerance(stopping.tolerance);
    }
    if (given("--max-epochs")) {
      settings = settings.withMaxEvaluations(stopping.maxEpochs);
    }
    if (stopping.maxSeconds != null) {
      settings = settings.withMaxSeconds(stopping.maxSeconds);
    }
    int threads = Objects.requireNonNullElse(shared.threads, defaults.threads());
    FullBatchOptions options =
        defaults.withPriorVariance(priorVariance).withThreads(threads).withLbfgs(settings);
    FullBatchSoftmax.requireMemory(train, options);
    LinearModel model =
        init == null
            ? LinearModel.zeros(method.link(), train.classes(), train.columns())
            : (LinearModel) savedModel(init, method, train, null);
    err.printf(
        "train: %s (full-batch L-BFGS) on %d examples, D = %d, K = %d (%s), %d thread(s)%n",
        method.label(),
        train.rows(),
        train.columns(),
        train.classes(),
        train.features().getClass().getSimpleName(),
        threads);
    FullBatchRun run;
    try {
      run =
          FullBatchSoftmax.train(
              train,
              model,
              options,
              kernels,
              (iteration, passes, objective, gradientNorm, change, seconds) ->
                  err.printf(
                      Locale.ROOT,
                      "train: iteration %d, objective %.12g, |gradient| %.2e, change %.2e"
                          + " relative, %d passes, %.1f s%n",
                      iteration,
                      objective,
                      gradientNorm,
                      change,
                      passes,
                      seconds));
    } catch (TrainingDivergedException e) {
      TrainingDivergedException told =
          new TrainingDivergedException(e.getMessage() + "; no model was written");
      told.initCause(e);
      throw told;
    }
    err.printf(Locale.ROOT, "train: %s%n", fullBatchEnding(run, settings));
    return new Fit(
        model,
        train.rows(),
        train.classes() - 1,
        threads,
        run.iterations(),
        run.passes(),
        run.stoppedBecause(),
        run.converged(),
        run.seconds(),
        run.seconds() / run.passes(),
        run.objective(),
        StoppingOptions.Watched.TRAIN_BOUND,
        null,
        null);
  }

  /** How a full-batch run ended, and what to do when it did not converge. */
  private String fullBatchEnding(FullBatchRun run, LbfgsSettings settings) {
    return switch (run.stoppedBecause()) {
      case CONVERGED ->
          String.format(
              Locale.ROOT,
              "converged (%s) after %d iterations, %d passes: objective %.12g",
              switch (run.outcome()) {
                case GRADIENT_TOLERANCE ->
                    String.format(Locale.ROOT, "|gradient| <= %.1e", settings.gradientTolerance());
                case RELATIVE_TOLERANCE ->
                    String.format(
                        Locale.ROOT, "change <= --tol %.1e", settings.relativeTolerance());
                default -> "at the objective's rounding noise, the gradient small";
              },
              run.iterations(),
              run.passes(),
              run.objective());
      case NO_PROGRESS ->
          String.format(
              Locale.ROOT,
              "stopped without converging: the line search found no better point, yet |gradient| is"
                  + " %.2e; the model is the best point found, not an optimum (try --scale-max or a"
                  + " larger --prior-variance)",
              run.gradientNorm());
      default ->
          String.format(
              Locale.ROOT,
              "stopped at %s before converging: the last iteration changed the objective by %.2e"
                  + " relative, more than --tol %.1e; give a larger %s or --tol",
              run.stoppedBecause() == TrainingRun.Stop.MAX_SECONDS
                  ? "--max-seconds " + settings.maxSeconds()
                  : run.outcome() == LbfgsResult.Outcome.MAX_ITERATIONS
                      ? settings.maxIterations() + " iterations"
                      : "--max-epochs " + settings.maxEvaluations() + " passes",
              run.relativeChange(),
              settings.relativeTolerance(),
              run.stoppedBecause() == TrainingRun.Stop.MAX_SECONDS
                  ? "--max-seconds"
                  : "--max-epochs");
    };
  }
}
