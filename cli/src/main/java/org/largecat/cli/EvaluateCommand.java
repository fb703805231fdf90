package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetBlocks;
import org.largecat.data.Features;
import org.largecat.data.OutOfShapeException;
import org.largecat.eval.ClassRanks;
import org.largecat.eval.Evaluation;
import org.largecat.eval.NonFiniteScoreException;
import org.largecat.eval.Predictor;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import org.largecat.model.ModelFile;
import org.largecat.model.ScoreModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code largecat evaluate} (test log-likelihood, accuracy, top-5) and {@code largecat predict}
 * (top-k per example).
 */
final class EvaluateCommand {
  private EvaluateCommand() {}

  @Command(
      name = "evaluate",
      description = "Mean log-likelihood per example, accuracy and top-5 accuracy on a test set.")
  static final class Evaluate implements Callable<Integer> {
    private final PrintStream out;

    @Option(
        names = "--model",
        paramLabel = "FILE",
        required = true,
        description = "The model file.")
    Path modelFile;

    @Option(names = "--test", paramLabel = "FILE", required = true, description = "The test set.")
    Path testFile;

    @Option(
        names = "--threads",
        paramLabel = "N",
        converter = OptionTypes.Count.class,
        description = "Worker threads (default: one per core).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--json", description = "Print the scores as JSON.")
    boolean json;

    @Mixin DataFiles data;

    Evaluate(Largecat.Streams streams) {
      this.out = streams.out();
    }

    @Override
    public Integer call() throws IOException {
      return evaluate(this, out);
    }
  }

  @Command(
      name = "predict",
      description = "Per example, the K most probable classes as class:probability.")
  static final class Predict implements Callable<Integer> {
    private final PrintStream out;

    @Option(
        names = "--model",
        paramLabel = "FILE",
        required = true,
        description = "The model file.")
    Path modelFile;

    @Option(
        names = "--input",
        paramLabel = "FILE",
        required = true,
        description = "The examples (labels are ignored).")
    Path inputFile;

    @Option(
        names = "--top",
        paramLabel = "K",
        converter = OptionTypes.Count.class,
        defaultValue = "5",
        description = "Classes per example (default: ${DEFAULT-VALUE}).")
    int top;

    @Mixin DataFiles data;

    private final PrintStream err;

    Predict(Largecat.Streams streams) {
      this.out = streams.out();
      this.err = streams.err();
    }

    @Override
    public Integer call() throws IOException {
      return predict(this, out, err);
    }
  }

  private static int evaluate(Evaluate args, PrintStream out) throws IOException {
    ScoreModel model = ModelFile.readScoreModel(args.modelFile);
    Evaluation.Accumulator sum = new Evaluation.Accumulator(model, Kernels.get(), 5, args.threads);
    try (DatasetBlocks blocks = args.data.blocks(args.testFile, model.columns(), model.classes())) {
      for (Dataset block = blocks.next(); block != null; block = blocks.next()) {
        sum.add(DataFiles.denseIfFull(block));
      }
    } catch (OutOfShapeException e) {
      throw DataFiles.shapeFrom(e, "the model file " + args.modelFile);
    } catch (NonFiniteScoreException e) {
      throw cannotScore(args.modelFile, args.testFile, e);
    }
    print(sum.result(), args.json, out);
    return 0;
  }

  /**
   * A score beyond float range, told as bad input that names the model file and the data file, as a
   * model whose biases pass float range is refused on load.
   */
  private static IOException cannotScore(Path modelFile, Path dataFile, NonFiniteScoreException e) {
    return new IOException(modelFile + ": cannot score " + dataFile + ": " + e.getMessage(), e);
  }

  /** Prints the scores of an evaluation, as a line of text or of JSON. */
  static void print(Evaluation.Result r, boolean json, PrintStream out) {
    if (json) {
      out.println(
          Json.line(
              new JsonOutputs.Evaluate(
                  r.meanLogLikelihood(), r.accuracy(), r.topKAccuracy(), r.examples())));
    } else {
      out.printf(
          "log-likelihood %.6f per example, accuracy %.4f, top-5 %.4f (%d examples)%n",
          r.meanLogLikelihood(), r.accuracy(), r.topKAccuracy(), r.examples());
    }
  }

  /** One line per example, a block of the input at a time. */
  private static int predict(Predict args, PrintStream out, PrintStream err) throws IOException {
    ScoreModel model = ModelFile.readScoreModel(args.modelFile);
    int top = Math.min(args.top, model.classes());
    if (top < args.top) {
      err.printf(
          "predict: --top %d is more than the model's K = %d classes; printing all %d%n",
          args.top, model.classes(), top);
    }
    Predictor predictor = new Predictor(model, Kernels.get());
    double[] logP = new double[model.classes()];
    int[] best = new int[top];
    StringBuilder line = new StringBuilder();
    try (DatasetBlocks blocks =
        args.data.blocks(args.inputFile, model.columns(), model.classes())) {
      long example = 0;
      for (Dataset block = blocks.next(); block != null; block = blocks.next()) {
        Features x = DataFiles.denseIfFull(block).features();
        predictor.forEachRow(
            x,
            0,
            block.rows(),
            example + 1,
            (n, psi) -> {
              predictor.logProbabilities(psi, logP);
              ClassRanks.topClasses(logP, best);
              line.setLength(0);
              for (int i = 0; i < top; i++) {
                line.append(i == 0 ? "" : " ")
                    .append(best[i])
                    .append(':')
                    .append(Math.exp(logP[best[i]]));
              }
              out.println(line);
            });
        example += block.rows();
      }
    } catch (OutOfShapeException e) {
      throw DataFiles.shapeFrom(e, "the model file " + args.modelFile);
    } catch (NonFiniteScoreException e) {
      throw cannotScore(args.modelFile, args.inputFile, e);
    }
    return 0;
  }
}
