package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.eval.Evaluation;
import org.largecat.eval.ScoreRange;
import org.largecat.fit.Fit;
import org.largecat.fit.Fitter;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import org.largecat.model.ModelFile;
import org.largecat.train.Method;
import org.largecat.train.TrainingDivergedException;
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

  @Mixin SharedFitOptions shared;

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

  @Mixin StepOptions stepOptions;

  @Mixin SamplingOptions samplingOptions;

  @Mixin PriorOptions prior;

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

  /** The options the full-batch solver does not take. */
  private static final String STOCHASTIC_ONLY =
      "--batch --sampled --step --learning-rate --sampling --sampling-power --epochs --iterations"
          + " --rank --patience --step-reductions --ridge";

  TrainCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws IOException {
    PrintStream out = streams.out();
    PrintStream err = streams.err();
    refuseContradictions();
    new OutputFiles()
        .reads("--train", shared.trainFile)
        .reads("--test", testFile)
        .writes("--model", modelFile)
        .check();
    Dataset train = data.read(shared.trainFile, -1, -1);
    Dataset test =
        testFile == null
            ? null
            : data.read(
                testFile, train.columns(), train.classes(), "the training set " + shared.trainFile);
    if (test != null && dropUnseen) {
      int before = test.rows();
      test = Preprocessing.dropUnseenClasses(train, test);
      if (test.rows() == 0) {
        throw new IllegalArgumentException(
            testFile
                + ": the class of every one of its "
                + before
                + " examples never occurs in training, so --drop-unseen leaves nothing to score");
      }
      err.printf(
          "train: dropped %d of %d test examples whose class never occurs in training%n",
          before - test.rows(), before);
    }
    if (scaleMax) {
      Dataset[] scaled = Preprocessing.scaleByTrainingMaximum(train, test == null ? train : test);
      train = scaled[0];
      test = test == null ? null : scaled[1];
    }
    // On the calling thread, not overlapped with reading on a pool thread: an out-of-memory error
    // there could leave the future never completed and the command waiting on it.
    Kernels kernels = Kernels.get();
    Fit fit;
    try {
      fit = fitter(err).fit(train);
    } catch (TrainingDivergedException e) {
      TrainingDivergedException told =
          new TrainingDivergedException(e.getMessage() + "; no model was written");
      told.initCause(e);
      throw told;
    }
    // Everything that can fail runs before the model is written, so a failure keeps the old file.
    try {
      ScoreRange.check(fit.model(), train, kernels);
    } catch (ArithmeticException e) {
      throw notSaved(shared.trainFile, e);
    }
    Evaluation.Result scores = null;
    if (test != null) {
      try {
        scores = Evaluation.evaluate(fit.model(), test, kernels, 5, fit.threads());
      } catch (ArithmeticException e) {
        throw notSaved(testFile, e);
      }
    }
    if (modelFile != null) {
      ModelFile.write(fit.model(), modelFile);
      err.println("train: model written to " + modelFile);
    }
    if (json) {
      out.println(Json.line(JsonOutputs.Train.of(fit, kernels, scores)));
    } else {
      TrainSummary.print(fit, "iterations", scores, out);
    }
    return 0;
  }

  /** The failure {@code e} of the trained model on {@code file}, told with the file. */
  private ArithmeticException notSaved(Path file, ArithmeticException e) {
    ArithmeticException told =
        new ArithmeticException(
            file + ": " + e.getMessage() + (modelFile != null ? "; the model was not saved" : ""));
    told.initCause(e);
    return told;
  }

  /** The fitter the options describe, its progress told on {@code err}. */
  private Fitter fitter(PrintStream err) throws IOException {
    Fitter fitter = Fitter.softmax().listener(new ProgressLines("train", err));
    shared.configure(fitter);
    stopping.configure(fitter);
    stepOptions.configure(fitter);
    samplingOptions.configure(fitter);
    if (iterations != null) {
      fitter.iterations(iterations);
    }
    if (epochs != null) {
      fitter.epochs(epochs);
    }
    prior.configure(fitter);
    if (rank != null) {
      fitter.rank(rank);
    }
    if (init != null) {
      fitter.init(ModelFile.readScoreModel(init));
    }
    return fitter;
  }

  /**
   * Options that contradict each other, or that the full-batch solver does not take, are usage
   * errors before any data is read.
   */
  private void refuseContradictions() {
    if (iterations != null && epochs != null) {
      throw usage("give --iterations or --epochs, not both");
    }
    if ((iterations != null || epochs != null) && stopping.anyGiven()) {
      throw usage(
          "--tol, --patience, --max-epochs, --max-seconds, --step-reductions and"
              + " --validation-fraction set the stopping rule, which runs only without --epochs and"
              + " --iterations");
    }
    if (stopping.validationFraction != null && stopping.validationFraction >= 1) {
      throw usage("--validation-fraction " + stopping.validationFraction + " must be below 1");
    }
    if (shared.method == Method.EXACT_SOFTMAX) {
      String refused =
          Arrays.stream(STOCHASTIC_ONLY.split(" "))
              .filter(spec.commandLine().getParseResult()::hasMatchedOption)
              .collect(Collectors.joining(", "));
      if (!refused.isEmpty()) {
        throw usage(
            refused
                + (refused.contains(",") ? " do" : " does")
                + " not apply to exact-softmax, which runs L-BFGS on the whole training set until"
                + " it converges (--tol, --max-epochs, --max-seconds)");
      }
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
