package org.largecat.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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
}
