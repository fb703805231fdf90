package org.largecat.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One in-process run of the largecat command: its exit status and what it printed. */
record CommandRun(int status, String out, String err) {

  /** Runs {@code args} with empty standard input. */
  static CommandRun of(String... args) throws Exception {
    return withInput("", args);
  }

  /** Writes a small training set to {@code file}: 120 rows, K = 6, D = 4, by {@code data synth}. */
  static void smallTrainingSet(Path file) throws Exception {
    CommandRun r =
        of(
            "data",
            "synth",
            "softmax",
            "--rows",
            "120",
            "--columns",
            "4",
            "--classes",
            "6",
            "--out",
            file.toString());
    if (r.status() != 0) {
      throw new AssertionError("data synth failed: " + r.err());
    }
  }

  /**
   * Writes small choice data to {@code file} by {@code synth simulate}: {@code users} users, 3
   * items, 3 choices each, {@code latent} latent dimensions, then the options {@code more}.
   */
  static void smallChoiceData(Path file, int users, int latent, String... more) throws Exception {
    String[] simulate = {
      "synth",
      "simulate",
      "--users",
      Integer.toString(users),
      "--items",
      "3",
      "--choices",
      "3",
      "--latent",
      Integer.toString(latent),
      "--out",
      file.toString()
    };
    String[] args = Arrays.copyOf(simulate, simulate.length + more.length);
    System.arraycopy(more, 0, args, simulate.length, more.length);
    CommandRun r = of(args);
    if (r.status() != 0) {
      throw new AssertionError("synth simulate failed: " + r.err());
    }
  }

  /** Runs {@code args} with {@code input} on standard input. */
  static CommandRun withInput(String input, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        Largecat.run(
            args,
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CommandRun(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Whether {@code value} is, to the six digits printed, the best epoch's value of {@code watched}.
   */
  boolean bestEpochPrinted(String watched, double value) {
    Matcher line =
        Pattern.compile(": epoch \\d+, " + Pattern.quote(watched) + " (\\S+) \\(").matcher(err);
    double best = Double.NEGATIVE_INFINITY;
    while (line.find()) {
      best = Math.max(best, Double.parseDouble(line.group(1)));
    }
    return String.format(Locale.ROOT, "%.6g", value)
        .equals(String.format(Locale.ROOT, "%.6g", best));
  }

  /**
   * Whether the last epoch line the stopping rule printed on standard error gave {@code value} for
   * {@code watched} (e.g. "training rows' log-likelihood"), as it prints it.
   */
  boolean lastEpochPrinted(String watched, double value) {
    Matcher line =
        Pattern.compile(": epoch \\d+, " + Pattern.quote(watched) + " (\\S+) \\(").matcher(err);
    String last = null;
    while (line.find()) {
      last = line.group(1);
    }
    return String.format(Locale.ROOT, "%.6g", value).equals(last);
  }
}
