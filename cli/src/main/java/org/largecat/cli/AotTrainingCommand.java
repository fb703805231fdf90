package org.largecat.cli;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code largecat aot-training DIR}: the training run from which the launcher makes the JDK's
 * ahead-of-time cache (JEPs 483, 514, 515; bin/aot-cache.sh). It runs short forms of the commands a
 * user runs, in this one JVM, on generated data written into DIR, so that the cache holds the
 * classes they load and the method profiles of their kernels; with it the JIT compiles the Vector
 * API kernels sooner in a later run. Hidden from {@code --help}: users reach it through the
 * launcher, or run it themselves under {@code -XX:AOTCacheOutput} (docs/training.md).
 */
@Command(
    name = "aot-training",
    hidden = true,
    description = "Runs short forms of the commands on generated data in DIR, for an AOT cache.")
final class AotTrainingCommand implements Callable<Integer> {
  private final Largecat.Streams streams;

  @Parameters(index = "0", paramLabel = "DIR", description = "An existing, writable directory.")
  Path dir;

  AotTrainingCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() {
    if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
      throw new IllegalArgumentException(dir + ": not a writable directory");
    }
    String softmax = file("softmax.txt");
    String softmaxTest = file("softmax-test.txt");
    String dense = file("dense.txt");
    String cb = file("cb.txt");
    String model = file("model.bin");
    List<List<String>> steps =
        List.of(
            List.of(
                "data",
                "synth",
                "softmax",
                "--rows",
                "4000",
                "--test-rows",
                "1000",
                "--columns",
                "50",
                "--density",
                "0.2",
                "--classes",
                "100",
                "--seed",
                "1",
                "--out",
                softmax,
                "--test-out",
                softmaxTest),
            List.of(
                "data",
                "synth",
                "softmax",
                "--rows",
                "2000",
                "--columns",
                "20",
                "--classes",
                "10",
                "--seed",
                "2",
                "--out",
                dense),
            List.of(
                "data",
                "synth",
                "cb",
                "--rows",
                "2000",
                "--classes",
                "50",
                "--covariates",
                "10",
                "--sigma-high",
                "2",
                "--seed",
                "3",
                "--out",
                cb),
            trainStep("ar-softmax", softmax, softmaxTest, "1500", "--model", model),
            trainStep("ar-probit", softmax, softmaxTest, "500"),
            trainStep("ar-logistic", softmax, softmaxTest, "500"),
            trainStep("ove", softmax, softmaxTest, "500"),
            trainStep("isgd", softmax, softmaxTest, "20000"),
            List.of("train", "--train", dense, "--max-epochs", "200", "--json"),
            List.of("evaluate", "--model", model, "--test", softmaxTest, "--json"),
            List.of("predict", "--model", model, "--input", softmaxTest, "--top", "3"),
            List.of(
                "cavi",
                "--train",
                cb,
                "--link",
                "probit",
                "--iterations",
                "8",
                "--samples",
                "2",
                "--json"),
            List.of(
                "cavi",
                "--train",
                cb,
                "--link",
                "logit",
                "--iterations",
                "4",
                "--samples",
                "2",
                "--json"));
    InputStream none = InputStream.nullInputStream();
    for (List<String> step : steps) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int status =
          Largecat.run(
              step.toArray(String[]::new),
              none,
              new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      if (status != 0) {
        throw new IllegalStateException(
            "'largecat "
                + String.join(" ", step)
                + "' failed: "
                + err.toString(StandardCharsets.UTF_8).strip());
      }
    }
    streams.out().println("aot-training: ran " + steps.size() + " commands in " + dir);
    return 0;
  }

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  private static List<String> trainStep(
      String method, String train, String test, String iterations, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--train",
                train,
                "--test",
                test,
                "--method",
                method,
                "--iterations",
                iterations,
                "--json"));
    args.addAll(List.of(more));
    return args;
  }
}
