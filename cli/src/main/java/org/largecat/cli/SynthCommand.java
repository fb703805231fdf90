package org.largecat.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.largecat.json.Json;
import org.largecat.synth.ChoiceData;
import org.largecat.synth.CovarianceRecovery;
import org.largecat.synth.FidelityReport;
import org.largecat.synth.SynthModel;
import org.largecat.synth.VariationalEm;

/**
 * {@code largecat synth}: simulate survey answers from model (1), fit the model by variational EM
 * (or Laplace), generate synthetic users from a fitted model, and report how faithful they are.
 */
final class SynthCommand {
  private SynthCommand() {}

  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) throws InterruptedException {
    if (args.length == 0) {
      throw new Largecat.UsageException("synth needs a subcommand: simulate, fit, generate or report");
    }
    try {
      return switch (args[0]) {
        case "simulate" -> simulate(Options.parse(args, Set.of("users", "items", "choices", "latent", "seed", "out",
            "truth"), Set.of()), out);
        case "fit" -> fit(Options.parse(args, Set.of("data", "latent", "method", "model", "choices", "threads",
            "iterations", "tolerance", "seed", "samples", "init", "embedding-steps"), Set.of()), out);
        case "generate" -> generate(Options.parse(args, Set.of("model", "users", "out", "seed"), Set.of()), out);
        case "report" -> report(Options.parse(args, Set.of("real", "synthetic", "truth", "model"), Set.of("json")),
            out);
        default -> throw new Largecat.UsageException("unknown synth subcommand '" + args[0] + "'");
      };
    } catch (IllegalArgumentException e) {
      err.println("largecat synth " + args[0] + ": " + e.getMessage());
      return 2;
    } catch (NoSuchFileException e) {
      err.println("largecat synth " + args[0] + ": " + e.getFile() + ": no such file");
      return 2;
    } catch (IOException e) {
      err.println("largecat synth " + args[0] + ": " + e);
      return 2;
    }
  }

  private static int simulate(Options o, PrintStream out) throws IOException {
    SynthModel truth = SynthModel.randomTruth(o.positive("items"), o.positive("choices"), o.positive("latent"),
        o.longValue("seed", 1));
    long seed = o.longValue("seed", 1);
    ChoiceData data = truth.sample(o.positive("users"), seed + 1);
    data.write(o.path("out"));
    if (o.has("truth")) {
      truth.save(o.path("truth"));
    }
    out.printf(Locale.ROOT, "wrote %d users x %d items (K = %d, d = %d, seed %d) to %s%s%n", data.users(),
        data.items(), data.choiceCount(), truth.latent(), seed, o.path("out"),
        o.has("truth") ? ", the true model to " + o.path("truth") : "");
    return 0;
  }

  private static int fit(Options o, PrintStream out) throws IOException, InterruptedException {
    ChoiceData data = ChoiceData.read(o.path("data"), o.has("choices") ? o.positive("choices") : 0);
    VariationalEm.Method method = VariationalEm.Method.parse(o.string("method", "vem"));
    VariationalEm.Options options = new VariationalEm.Options(o.positive("latent"), method,
        o.has("threads") ? o.positive("threads") : Runtime.getRuntime().availableProcessors(),
        o.has("iterations") ? o.positive("iterations") : 200, o.doubleValue("tolerance", 1e-6),
        o.longValue("seed", 1), o.has("embedding-steps") ? o.positive("embedding-steps") : 3, o.has("samples") ? o.positive("samples")
        : method.defaultSamples());
    out.printf(Locale.ROOT, "fitting %d users x %d items, K = %d, d = %d, method %s, %d threads%n", data.users(),
        data.items(), data.choiceCount(), options.latent(), options.method().label(),
        options.threads());
    out.printf("%5s %22s %10s %10s%n", "iter", "bound", "E-step s", "M-step s");
    long start = System.nanoTime();
    SynthModel initial = o.has("init") ? SynthModel.load(o.path("init")) : null;
    VariationalEm.Result result = VariationalEm.fit(data, options, initial, it -> out.printf(Locale.ROOT,
        "%5d %22.6f %10.3f %10.3f%n", it.number(), it.bound(), it.eStepSeconds(), it.mStepSeconds()));
    double seconds = (System.nanoTime() - start) * 1e-9;
    List<VariationalEm.Iteration> iterations = result.iterations();
    int decreases = result.boundDecreases();
    result.model().save(o.path("model"));
    out.printf(Locale.ROOT, "%d iterations in %.1f s (%.2f s per iteration); bound %.6f; bound decreased %d times"
        + "%s%n", iterations.size(), seconds, seconds / iterations.size(), iterations.getLast().bound(), decreases,
        decreases > 0 ? String.format(Locale.ROOT, " (largest drop %.3g)", result.largestBoundDrop()) : "");
    out.println("wrote " + o.path("model"));
    return 0;
  }

  private static int generate(Options o, PrintStream out) throws IOException {
    SynthModel model = SynthModel.load(o.path("model"));
    ChoiceData data = model.sample(o.positive("users"), o.longValue("seed", 1));
    data.write(o.path("out"));
    out.printf(Locale.ROOT, "wrote %d synthetic users x %d items to %s%n", data.users(), data.items(), o.path("out"));
    return 0;
  }

  private static int report(Options o, PrintStream out) throws IOException {
    if (o.has("truth") != o.has("model")) {
      throw new Largecat.UsageException("report needs both --truth and --model, or neither");
    }
    ChoiceData real = ChoiceData.read(o.path("real"), 0);
    ChoiceData synthetic = ChoiceData.read(o.path("synthetic"), 0);
    FidelityReport fidelity = FidelityReport.compare(real, synthetic);
    CovarianceRecovery recovery = o.has("truth")
        ? CovarianceRecovery.compare(SynthModel.load(o.path("truth")), SynthModel.load(o.path("model"))) : null;
    if (o.has("json")) {
      out.println(Json.line(JsonOutputs.SynthReport.of(fidelity, recovery)));
    } else {
      out.print(fidelity.toText());
      if (recovery != null) {
        out.print(recovery.toText());
      }
    }
    return 0;
  }

  /** {@code --name value} options and bare {@code --flag}s after the subcommand, each at most once. */
  private record Options(String command, Map<String, String> values) {
    static Options parse(String[] args, Set<String> valued, Set<String> flags) {
      Map<String, String> values = new HashMap<>();
      for (int j = 1; j < args.length; j++) {
        String arg = args[j];
        String name = arg.startsWith("--") ? arg.substring(2) : null;
        if (name == null || !(valued.contains(name) || flags.contains(name))) {
          throw new Largecat.UsageException("synth " + args[0] + ": unexpected argument '" + arg + "'");
        }
        if (values.containsKey(name)) {
          throw new Largecat.UsageException("synth " + args[0] + ": --" + name + " given twice");
        }
        if (flags.contains(name)) {
          values.put(name, "");
        } else if (j + 1 < args.length) {
          values.put(name, args[++j]);
        } else {
          throw new Largecat.UsageException("synth " + args[0] + ": --" + name + " needs a value");
        }
      }
      return new Options(args[0], values);
    }

    boolean has(String name) {
      return values.containsKey(name);
    }

    String required(String name) {
      String value = values.get(name);
      if (value == null) {
        throw new Largecat.UsageException("synth " + command + " needs --" + name);
      }
      return value;
    }

    String string(String name, String fallback) {
      return values.getOrDefault(name, fallback);
    }

    Path path(String name) {
      return Path.of(required(name));
    }

    int positive(String name) {
      String value = required(name);
      try {
        int n = Integer.parseInt(value);
        if (n >= 1) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException("--" + name + " must be a positive integer, got '" + value + "'");
    }

    long longValue(String name, long fallback) {
      String value = values.get(name);
      if (value == null) {
        return fallback;
      }
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + name + " must be an integer, got '" + value + "'");
      }
    }

    double doubleValue(String name, double fallback) {
      String value = values.get(name);
      if (value == null) {
        return fallback;
      }
      try {
        return Double.parseDouble(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + name + " must be a number, got '" + value + "'");
      }
    }
  }
}
