package org.largecat.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.largecat.json.Json;
import org.largecat.synth.ChoiceData;
import org.largecat.synth.CovarianceRecovery;
import org.largecat.synth.FidelityReport;
import org.largecat.synth.SynthModel;
import org.largecat.synth.VariationalEm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code largecat synth}: simulate survey answers from model (1), fit the model by variational EM
 * (or Laplace), generate synthetic users from a fitted model, and report how faithful they are.
 */
@Command(
    name = "synth",
    description =
        "Survey answers from model (1): simulate them, fit the model, generate"
            + " synthetic users from it, and report how faithful they are.")
final class SynthCommand {
  private final Largecat.Streams streams;

  @Spec CommandSpec spec;

  SynthCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  @Command(name = "simulate", description = "Draws users from model (1) with a correlated Sigma.")
  int simulate(
      @Option(
              names = "--users",
              paramLabel = "U",
              required = true,
              converter = OptionTypes.Count.class)
          int users,
      @Option(
              names = "--items",
              paramLabel = "I",
              required = true,
              converter = OptionTypes.Count.class)
          int items,
      @Option(
              names = "--choices",
              paramLabel = "K",
              required = true,
              converter = OptionTypes.Count.class)
          int choices,
      @Option(
              names = "--latent",
              paramLabel = "d",
              required = true,
              converter = OptionTypes.Count.class)
          int latent,
      @Option(names = "--seed", paramLabel = "N", defaultValue = "1") long seed,
      @Option(names = "--out", paramLabel = "FILE", required = true) Path file,
      @Option(
              names = "--truth",
              paramLabel = "MODEL",
              description = "Where to write the true model.")
          Path truthFile)
      throws IOException, InterruptedException {
    return simulate(users, items, choices, latent, seed, file, truthFile, streams.out());
  }

  @Command(
      name = "fit",
      description =
          "Fits model (1) by variational EM (Algorithm 1), or Laplace, importance"
              + " sampling or the beta prior.")
  int fit(
      @Option(names = "--data", paramLabel = "FILE", required = true) Path dataFile,
      @Option(
              names = "--latent",
              paramLabel = "d",
              required = true,
              converter = OptionTypes.Count.class)
          int latent,
      @Option(
              names = "--method",
              paramLabel = "vem|laplace|importance|beta-prior",
              defaultValue = "vem",
              description = "(default: ${DEFAULT-VALUE})")
          VariationalEm.Method method,
      @Option(names = "--model", paramLabel = "OUT", required = true) Path modelFile,
      @Option(
              names = "--choices",
              paramLabel = "K",
              converter = OptionTypes.Count.class,
              description = "Choices per item (default: from the data).")
          Integer choices,
      @Option(
              names = "--threads",
              paramLabel = "N",
              converter = OptionTypes.Count.class,
              description = "Worker threads (default: one per core).")
          Integer threads,
      @Option(
              names = "--iterations",
              paramLabel = "T",
              converter = OptionTypes.Count.class,
              defaultValue = "200",
              description = "(default: ${DEFAULT-VALUE})")
          int iterations,
      @Option(
              names = "--tolerance",
              paramLabel = "EPS",
              defaultValue = "1e-6",
              description =
                  "Stop when the bound's relative change is below EPS (default: ${DEFAULT-VALUE}).")
          double tolerance,
      @Option(names = "--seed", paramLabel = "N", defaultValue = "1") long seed,
      @Option(
              names = "--samples",
              paramLabel = "S",
              converter = OptionTypes.Count.class,
              description = "Monte Carlo samples (default: the method's).")
          Integer samples,
      @Option(names = "--init", paramLabel = "MODEL", description = "A fitted model to start from.")
          Path init,
      @Option(
              names = "--embedding-steps",
              paramLabel = "N",
              converter = OptionTypes.Count.class,
              defaultValue = "3",
              description =
                  "Newton steps on each item's B_i per M-step (default: ${DEFAULT-VALUE}).")
          int embeddingSteps)
      throws IOException, InterruptedException {
    new OutputFiles().reads("--data", dataFile).writes("--model", modelFile).check();
    ChoiceData data = ChoiceData.read(dataFile, choices == null ? 0 : choices);
    VariationalEm.Options options =
        new VariationalEm.Options(
            latent,
            method,
            threads == null ? Runtime.getRuntime().availableProcessors() : threads,
            iterations,
            tolerance,
            seed,
            embeddingSteps,
            samples == null ? method.defaultSamples() : samples);
    return fit(data, options, init, modelFile, streams.out());
  }

  @Command(name = "generate", description = "Draws synthetic users from a fitted model.")
  int generate(
      @Option(names = "--model", paramLabel = "FILE", required = true) Path modelFile,
      @Option(
              names = "--users",
              paramLabel = "U",
              required = true,
              converter = OptionTypes.Count.class)
          int users,
      @Option(names = "--out", paramLabel = "FILE", required = true) Path file,
      @Option(names = "--seed", paramLabel = "N", defaultValue = "1") long seed)
      throws IOException, InterruptedException {
    return generate(modelFile, users, file, seed, streams.out());
  }

  @Command(
      name = "report",
      description =
          "Marginal TV and pairwise Cramer's V of synthetic against real users;"
              + " with --truth and --model, Sigma against the truth.")
  int report(
      @Option(names = "--real", paramLabel = "FILE", required = true) Path realFile,
      @Option(names = "--synthetic", paramLabel = "FILE", required = true) Path syntheticFile,
      @Option(names = "--json", description = "Print the report as JSON.") boolean asJson,
      @Option(names = "--truth", paramLabel = "MODEL", description = "The true model.")
          Path truthFile,
      @Option(names = "--model", paramLabel = "MODEL", description = "The fitted model.")
          Path modelFile)
      throws IOException, InterruptedException {
    if ((truthFile != null) != (modelFile != null)) {
      throw new ParameterException(
          spec.subcommands().get("report"), "give both --truth and --model, or neither");
    }
    return report(realFile, syntheticFile, asJson, truthFile, modelFile, streams.out());
  }

  private static int simulate(
      int users,
      int items,
      int choices,
      int latent,
      long seed,
      Path file,
      Path truthFile,
      PrintStream out)
      throws IOException {
    new OutputFiles().writes("--out", file).writes("--truth", truthFile).check();
    SynthModel truth = SynthModel.randomTruth(items, choices, latent, seed);
    ChoiceData data = truth.sample(users, seed + 1);
    data.write(file);
    if (truthFile != null) {
      truth.save(truthFile);
    }
    out.printf(
        Locale.ROOT,
        "wrote %d users x %d items (K = %d, d = %d, seed %d) to %s%s%n",
        data.users(),
        data.items(),
        data.choiceCount(),
        truth.latent(),
        seed,
        file,
        truthFile != null ? ", the true model to " + truthFile : "");
    return 0;
  }

  private static int fit(
      ChoiceData data, VariationalEm.Options options, Path init, Path modelFile, PrintStream out)
      throws IOException, InterruptedException {
    out.printf(
        Locale.ROOT,
        "fitting %d users x %d items, K = %d, d = %d, method %s, %d threads%n",
        data.users(),
        data.items(),
        data.choiceCount(),
        options.latent(),
        options.method().label(),
        options.threads());
    out.printf("%5s %22s %10s %10s%n", "iter", "bound", "E-step s", "M-step s");
    long start = System.nanoTime();
    SynthModel initial = init != null ? SynthModel.load(init) : null;
    VariationalEm.Result result =
        VariationalEm.fit(
            data,
            options,
            initial,
            it ->
                out.printf(
                    Locale.ROOT,
                    "%5d %22.6f %10.3f %10.3f%n",
                    it.number(),
                    it.bound(),
                    it.eStepSeconds(),
                    it.mStepSeconds()));
    double seconds = (System.nanoTime() - start) * 1e-9;
    List<VariationalEm.Iteration> iterations = result.iterations();
    int decreases = result.boundDecreases();
    result.model().save(modelFile);
    out.printf(
        Locale.ROOT,
        "%d iterations in %.1f s (%.2f s per iteration); bound %.6f; bound decreased %d times"
            + "%s%n",
        iterations.size(),
        seconds,
        seconds / iterations.size(),
        iterations.getLast().bound(),
        decreases,
        decreases > 0
            ? String.format(Locale.ROOT, " (largest drop %.3g)", result.largestBoundDrop())
            : "");
    out.println("wrote " + modelFile);
    return 0;
  }

  private static int generate(Path modelFile, int users, Path file, long seed, PrintStream out)
      throws IOException {
    new OutputFiles().reads("--model", modelFile).writes("--out", file).check();
    SynthModel model = SynthModel.load(modelFile);
    ChoiceData data = model.sample(users, seed);
    data.write(file);
    out.printf(
        Locale.ROOT,
        "wrote %d synthetic users x %d items to %s%n",
        data.users(),
        data.items(),
        file);
    return 0;
  }

  private static int report(
      Path realFile,
      Path syntheticFile,
      boolean asJson,
      Path truthFile,
      Path modelFile,
      PrintStream out)
      throws IOException {
    ChoiceData real = ChoiceData.read(realFile, 0);
    ChoiceData synthetic = ChoiceData.read(syntheticFile, 0);
    FidelityReport fidelity = FidelityReport.compare(real, synthetic);
    CovarianceRecovery recovery =
        truthFile != null
            ? CovarianceRecovery.compare(SynthModel.load(truthFile), SynthModel.load(modelFile))
            : null;
    if (asJson) {
      out.println(Json.line(JsonOutputs.SynthReport.of(fidelity, recovery)));
    } else {
      out.print(fidelity.toText());
      if (recovery != null) {
        out.print(recovery.toText());
      }
    }
    return 0;
  }
}
