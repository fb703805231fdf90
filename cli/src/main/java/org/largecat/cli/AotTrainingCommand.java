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
 * ahead-of-time cache with {@code LARGECAT_AOT=on} (JEPs 483, 514, 515; bin/aot-cache.sh). It runs
 * short forms of the commands a user runs, in this one JVM, on generated data written into DIR, so
 * that the cache holds the classes they load and, where the JDK archives them, the method profiles
 * of their kernels. Hidden from {@code --help}: users reach it through the launcher, or run it
 * themselves under {@code -XX:AOTCacheOutput} (docs/training.md).
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
            words(
                "data synth softmax --rows 4000 --test-rows 1000 --columns 50 --density 0.2"
                    + " --classes 100 --seed 1 --out",
                softmax,
                "--test-out",
                softmaxTest),
            words("data synth softmax --rows 2000 --columns 20 --classes 10 --seed 2 --out", dense),
            words(
                "data synth cb --rows 2000 --classes 50 --covariates 10 --sigma-high 2 --seed 3"
                    + " --out",
                cb),
            words(
                "train --method ar-softmax --iterations 1500 --json --model",
                model,
                "--train",
                softmax,
                "--test",
                softmaxTest),
            words("train --method ar-probit --iterations 500 --json --train", softmax),
            words("train --method ar-logistic --iterations 500 --json --train", softmax),
            words("train --method ove --iterations 500 --json --train", softmax),
            words("train --method isgd --iterations 20000 --json --train", softmax),
            words("train --max-epochs 200 --json --train", dense),
            words("evaluate --json --model", model, "--test", softmaxTest),
            words("predict --top 3 --model", model, "--input", softmaxTest),
            words("cavi --link probit --iterations 8 --samples 2 --json --train", cb),
            words("cavi --link logit --iterations 4 --samples 2 --json --train", cb));
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
        streams
            .err()
            .println(
                "largecat aot-training: 'largecat "
                    + String.join(" ", step)
                    + "' failed: "
                    + err.toString(StandardCharsets.UTF_8).strip());
        return Failures.RUN_FAILED;
      }
    }
    streams.out().println("aot-training: ran " + steps.size() + " commands in " + dir);
    return 0;
  }

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  /** The words of {@code fixed}, then {@code more} as they are (file names may hold spaces). */
  private static List<String> words(String fixed, String... more) {
    List<String> args = new ArrayList<>(List.of(fixed.split(" ")));
    args.addAll(List.of(more));
    return args;
  }
}
