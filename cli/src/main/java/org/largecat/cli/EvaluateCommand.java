package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import org.largecat.data.Dataset;
import org.largecat.data.Features;
import org.largecat.eval.Evaluation;
import org.largecat.eval.Predictor;
import org.largecat.json.Json;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.ModelFile;

/** {@code largecat evaluate} (test log-likelihood, accuracy, top-5) and {@code largecat predict} (top-k per example). */
final class EvaluateCommand {
  static final String USAGE = """
             largecat evaluate --model FILE --test FILE [--threads N] [--json] [--format ...]
                                                       mean log-likelihood per example, accuracy and top-5 accuracy
             largecat predict --model FILE --input FILE [--top K] [--format ...]
                                                       per example, the K most probable classes as class:probability
      """;

  private EvaluateCommand() {}

  static int evaluate(String[] rest, PrintStream out) throws IOException {
    CommandLine args = new CommandLine("evaluate", rest, withData("--model", "--test", "--threads"), List.of("--json"));
    LinearModel model = ModelFile.read(args.requiredPath("--model"));
    Dataset test = DataFiles.read(args, args.requiredPath("--test"), model.columns(), model.classes());
    Evaluation.Result r = Evaluation.evaluate(model, test, Kernels.get(), 5,
        args.integer("--threads", Runtime.getRuntime().availableProcessors(), 1));
    if (args.has("--json")) {
      out.println(Json.line(new JsonOutputs.Evaluate(r.meanLogLikelihood(), r.accuracy(), r.topKAccuracy(),
          r.examples())));
    } else {
      out.printf("log-likelihood %.6f per example, accuracy %.4f, top-5 %.4f (%d examples)%n",
          r.meanLogLikelihood(), r.accuracy(), r.topKAccuracy(), r.examples());
    }
    return 0;
  }

  static int predict(String[] rest, PrintStream out) throws IOException {
    CommandLine args = new CommandLine("predict", rest, withData("--model", "--input", "--top"), List.of());
    LinearModel model = ModelFile.read(args.requiredPath("--model"));
    Dataset input = DataFiles.read(args, args.requiredPath("--input"), model.columns(), model.classes());
    int top = Math.min(args.integer("--top", 5, 1), model.classes());
    Predictor predictor = new Predictor(model, Kernels.get());
    double[] psi = new double[model.classes()];
    double[] logP = new double[model.classes()];
    int[] best = new int[top];
    Features x = input.features();
    StringBuilder line = new StringBuilder();
    for (int n = 0; n < input.rows(); n++) {
      predictor.utilities(x, n, psi);
      predictor.logProbabilities(psi, logP);
      topClasses(logP, best);
      line.setLength(0);
      for (int i = 0; i < top; i++) {
        line.append(i == 0 ? "" : " ").append(best[i]).append(':').append(Math.exp(logP[best[i]]));
      }
      out.println(line);
    }
    return 0;
  }

  /** Fills {@code best} with the classes of the largest values, largest first (ties to the smaller index). */
  static void topClasses(double[] values, int[] best) {
    int size = 0;
    for (int k = 0; k < values.length; k++) {
      if (size < best.length || values[k] > values[best[size - 1]]) {
        int at = Math.min(size, best.length - 1);
        while (at > 0 && values[k] > values[best[at - 1]]) {
          best[at] = best[at - 1];
          at--;
        }
        best[at] = k;
        size = Math.min(size + 1, best.length);
      }
    }
  }

  private static List<String> withData(String... names) {
    return java.util.stream.Stream.concat(java.util.Arrays.stream(names), DataFiles.OPTIONS.stream()).toList();
  }
}
