package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.largecat.cb.CaviOptions;
import org.largecat.cli.spark.ExecutorSurvey;
import org.largecat.cli.spark.SparkJobs;
import org.largecat.cli.spark.SparkRun;
import org.largecat.eval.Evaluation;
import org.largecat.fit.Fit;
import org.largecat.fit.Fitter;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import org.largecat.model.ModelFile;
import org.largecat.model.ScoreModel;
import org.largecat.train.Method;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code largecat spark}: the commands that run on Apache Spark, in local mode inside this JVM or
 * on a cluster. Spark is not in largecat.jar (the launcher adds its jars for this command only), so
 * these classes hold no Spark type: the Spark work is in {@code org.largecat.cli.spark}, reached
 * only through {@link SparkOptions#run}, which first makes sure Spark is on the class path.
 */
@Command(
    name = "spark",
    description = "Runs on Apache Spark: local mode in this JVM (--master local[*]) or a cluster.",
    subcommands = {
      SparkCommand.Cavi.class,
      SparkCommand.Train.class,
      SparkCommand.Evaluate.class,
      SparkCommand.KernelChoices.class
    })
final class SparkCommand {
  private SparkCommand() {}

  /** The options every {@code spark} subcommand takes: where to run and Spark's settings. */
  static final class SparkOptions {
    @Option(
        names = "--master",
        paramLabel = "URL",
        description =
            "Spark's master: local[N] in this JVM, spark://HOST:PORT for a standalone cluster"
                + " (default: spark-submit's --master, else local[*]).")
    String master;

    @Option(
        names = "--partitions",
        paramLabel = "N",
        converter = OptionTypes.Count.class,
        description = "Partitions of the data (default: Spark's default parallelism).")
    Integer partitions;

    @Option(
        names = "--conf",
        paramLabel = "KEY=VALUE",
        description = "A Spark setting, e.g. spark.executor.memory=4g (repeatable).")
    Map<String, String> conf = new LinkedHashMap<>();

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The run these options describe, for {@code app} (the application's name). */
    SparkRun run(String app) {
      requireSpark();
      return new SparkRun(
          master, conf, partitions, app, Largecat.debug(command.root().commandLine()));
    }

    /**
     * Refuses to go on without Spark's classes, saying how to get them: a plain {@code java -jar
     * largecat.jar} has none.
     */
    private static void requireSpark() {
      try {
        Class.forName(
            "org.apache.spark.sql.SparkSession", false, SparkCommand.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalArgumentException(
            "Spark is not on the class path (largecat.jar leaves it out); run './largecat spark"
                + " ...', which adds cli/target/spark-jars/*, or submit largecat.jar to"
                + " spark-submit with --class org.largecat.cli.Largecat");
      }
    }
  }

  /** {@code largecat spark kernels}: which backends each executor's JVM chose. */
  @Command(
      name = "kernels",
      description =
          "Runs one task per partition and prints, per executor, the kernels' backend choice"
              + " (the line each executor also logs).")
  static final class KernelChoices implements Callable<Integer> {
    private final PrintStream out;

    @Mixin SparkOptions spark;

    KernelChoices(Largecat.Streams streams) {
      this.out = streams.out();
    }

    @Override
    public Integer call() {
      ExecutorSurvey.run(spark.run("largecat spark kernels")).forEach(out::println);
      return 0;
    }
  }

  /** {@code largecat spark evaluate}: {@code largecat evaluate} over a DataFrame. */
  @Command(
      name = "evaluate",
      description =
          "Mean log-likelihood per example, accuracy and top-5 accuracy on a test set, in one pass"
              + " over its partitions.")
  static final class Evaluate implements Callable<Integer> {
    private final PrintStream out;

    @Option(
        names = "--model",
        paramLabel = "FILE",
        required = true,
        description = "The model file (of train or spark train).")
    Path modelFile;

    @Option(names = "--test", paramLabel = "PATH", required = true, description = "The test set.")
    String testPath;

    @Option(names = "--json", description = "Print the scores as JSON.")
    boolean json;

    @Mixin SparkInput input;

    @Mixin SparkOptions spark;

    Evaluate(Largecat.Streams streams) {
      this.out = streams.out();
    }

    @Override
    public Integer call() throws IOException {
      ScoreModel model = ModelFile.readScoreModel(modelFile);
      EvaluateCommand.print(
          SparkJobs.evaluate(
              spark.run("largecat spark evaluate"),
              model,
              input.of(testPath, model.columns(), model.classes())),
          json,
          out);
      return 0;
    }
  }

  /**
   * {@code largecat spark cavi}: IB-CAVI with the rows in their partitions; the ELBO per iteration,
   * the BMA weight on CBC and the CBC, CBM and BMA scores as {@code largecat cavi} prints them.
   */
  @Command(
      name = "cavi",
      description =
          "IB-CAVI for CB-probit / CB-logit, data-parallel: the ELBO per iteration, the BMA"
              + " weight on CBC, and CBC, CBM and BMA scored on --test (else the training set).")
  static final class Cavi implements Callable<Integer> {
    private final PrintStream out;

    @Option(
        names = "--train",
        paramLabel = "PATH",
        required = true,
        description = "The training set.")
    String trainPath;

    @Option(
        names = "--test",
        paramLabel = "PATH",
        description = "A test set to score CBC, CBM and BMA on (default: the training set).")
    String testPath;

    @Option(names = "--json", description = "Print the results as JSON.")
    boolean json;

    @Mixin CaviCommand.FitOptions fit;

    @Mixin SparkInput input;

    @Mixin SparkOptions spark;

    Cavi(Largecat.Streams streams) {
      this.out = streams.out();
    }

    @Override
    public Integer call() throws IOException {
      SparkRun run = spark.run("largecat spark cavi");
      CaviOptions options = fit.options(Runtime.getRuntime().availableProcessors());
      SparkJobs.Cavi done =
          SparkJobs.cavi(
              run,
              input.of(trainPath, -1, -1),
              testPath == null ? null : input.of(testPath, -1, -1),
              options,
              fit.priorVariance,
              fit.samples,
              fit.seed,
              fit::checkSamples);
      double[][] metrics = new double[3][];
      for (int m = 0; m < 3; m++) {
        metrics[m] =
            new double[] {
              done.scores().meanLogLikelihood()[m], done.scores().accuracy()[m], Double.NaN
            };
      }
      String where = "Spark " + run.describe();
      new CaviCommand.Report(
              options,
              done.rows(),
              done.columns(),
              done.classes(),
              where + "; " + Kernels.get().describeChoice(),
              where,
              done.fit(),
              done.fitSeconds(),
              done.evidence(),
              testPath != null ? "test" : "train",
              done.scores().rows(),
              metrics,
              false)
          .print(out, json);
      return 0;
    }
  }

  /**
   * {@code largecat spark train}: a sampled trainer data-parallel under the stopping rule or for a
   * number of epochs, each cut into rounds of one broadcast and one sum of the partitions' changes.
   */
  @Command(
      name = "train",
      description =
          "Trains the linear model with a sampled-bound method (ar-softmax, ove, ar-probit,"
              + " ar-logistic, exact-softmax-sgd, nce, is) data-parallel, linear or factorized"
              + " (--rank), until it converges and says so, or for --epochs epochs.")
  static final class Train implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(
        names = "--train",
        paramLabel = "PATH",
        required = true,
        description = "The training set.")
    String trainPath;

    @Option(
        names = "--test",
        paramLabel = "PATH",
        description = "A test set to score the model on.")
    String testPath;

    @Option(
        names = "--method",
        paramLabel = "METHOD",
        required = true,
        description = "The sampled-bound method.")
    Method method;

    @Option(
        names = "--epochs",
        paramLabel = "E",
        converter = OptionTypes.Count.class,
        description = "Exactly E passes over the training set, instead of the stopping rule.")
    Integer epochs;

    @Mixin StoppingOptions stopping;

    @Mixin PriorOptions prior;

    @Option(
        names = "--rank",
        paramLabel = "R",
        converter = OptionTypes.Count.class,
        description =
            "Fit the factorized model with embeddings of width R instead of the linear one.")
    Integer rank;

    @Option(
        names = "--rounds",
        paramLabel = "R",
        converter = OptionTypes.Count.class,
        defaultValue = "10",
        description =
            "Rounds per epoch, each one broadcast of the model and one sum of the partitions'"
                + " changes; more partitions need more rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Mixin BatchOptions sizes;

    @Mixin StepOptions stepOptions;

    @Mixin SamplingOptions samplingOptions;

    @Option(
        names = "--model",
        paramLabel = "OUT",
        description = "Where to write the trained model.")
    Path modelFile;

    @Option(names = "--json", description = "Print a JSON summary.")
    boolean json;

    @Mixin SparkInput input;

    @Mixin SparkOptions spark;

    @Spec CommandSpec spec;

    Train(Largecat.Streams streams) {
      this.out = streams.out();
      this.err = streams.err();
    }

    @Override
    public Integer call() throws IOException {
      if (method == null) {
        throw new ParameterException(
            spec.commandLine(),
            "--method auto is train's; spark train takes a sampled-bound method");
      }
      if (epochs != null && stopping.anyGiven()) {
        throw new ParameterException(
            spec.commandLine(),
            "--tol, --patience, --max-epochs, --max-seconds, --step-reductions and"
                + " --validation-fraction set the stopping rule, which runs only without --epochs");
      }
      if (stopping.validationFraction != null && stopping.validationFraction >= 1) {
        throw new ParameterException(
            spec.commandLine(),
            "--validation-fraction " + stopping.validationFraction + " must be below 1");
      }
      new OutputFiles()
          .readsSparkPath("--train", trainPath)
          .readsSparkPath("--test", testPath)
          .writes("--model", modelFile)
          .check();
      Fitter fitter =
          Fitter.softmax().method(method).listener(new ProgressLines("spark train", err));
      stopping.configure(fitter);
      prior.configure(fitter);
      stepOptions.configure(fitter);
      samplingOptions.configure(fitter);
      sizes.configure(fitter);
      if (epochs != null) {
        fitter.epochs(epochs);
      }
      if (rank != null) {
        fitter.rank(rank);
      }
      SparkJobs.Train done =
          SparkJobs.train(
              spark.run("largecat spark train"),
              input.of(trainPath, -1, -1),
              testPath == null ? null : input.of(testPath, -1, -1),
              fitter,
              rounds);
      Fit fit = done.fit();
      if (modelFile != null) {
        ModelFile.write(fit.model(), modelFile);
        err.println("spark train: model written to " + modelFile);
      }
      Evaluation.Result scores = done.test();
      if (json) {
        out.println(Json.line(JsonOutputs.Train.of(fit, Kernels.get(), scores)));
        return 0;
      }
      TrainSummary.print(fit, "rounds", scores, out);
      return 0;
    }
  }
}
