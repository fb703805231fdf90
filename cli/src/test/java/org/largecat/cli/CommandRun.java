package org.largecat.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One in-process run of the largecat command: its exit status and what it printed. */
record CommandRun(int status, String out, String err) {

  /** Runs {@code args} with empty standard input. */
  static CommandRun of(String... args) throws Exception {
    return withInput("", args);
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
