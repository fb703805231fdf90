package org.largecat.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.largecat.WriteFailedException;
import picocli.CommandLine;

/**
 * How a failed run reaches the user: one line, {@code largecat COMMAND: what failed and why}, and
 * an exit status: 2 for bad input or usage (the message names the file, line or option), 1 for a
 * failure of the run (a diverged or overflowing model, a full disk). The stack trace is printed
 * only with {@code --debug}.
 */
final class Failures {
  /** Exit status of a run that failed. */
  static final int RUN_FAILED = 1;

  /** Exit status of bad usage or bad input. */
  static final int BAD_INPUT = 2;

  /**
   * The reader of standard output went away (e.g. {@code largecat predict ... | head}): the status
   * a Unix tool killed by SIGPIPE returns, without a message, as such a tool says nothing.
   */
  static final int BROKEN_PIPE = 128 + 13;

  private Failures() {}

  /** Prints {@code failure} of {@code command} to {@code err} and returns the exit status. */
  static int report(Throwable failure, String command, PrintWriter err, boolean debug) {
    if (debug) {
      failure.printStackTrace(err);
    }
    Throwable cause = unwrap(failure);
    String message =
        switch (cause) {
          case IOException e -> e.getMessage();
          case IllegalArgumentException e -> e.getMessage();
          case ArithmeticException e -> e.getMessage();
          default -> null;
        };
    // A file that could not be written after its path was accepted (a full disk) failed the run.
    int status =
        cause instanceof ArithmeticException || cause instanceof WriteFailedException
            ? RUN_FAILED
            : BAD_INPUT;
    OutOfMemoryError memory = outOfMemory(failure);
    if (memory != null) {
      message = outOfMemoryMessage();
      status = RUN_FAILED;
    } else if (message == null) {
      message =
          "internal error: " + cause + (debug ? "" : "; run with --debug for the stack trace");
      status = RUN_FAILED;
    }
    err.println(command + ": " + message);
    err.flush();
    return status;
  }

  /** The exception a wrapper (an unchecked I/O error, a worker's failure) stands for. */
  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    // The kernels are chosen in a class initializer, so a bad LARGECAT_BACKEND arrives wrapped.
    while ((t instanceof UncheckedIOException
            || t instanceof ExceptionInInitializerError
            || t instanceof ExecutionException
            || t instanceof CompletionException
            || t instanceof CommandLine.ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /** The OutOfMemoryError behind {@code failure}, if any, even when a worker thread's. */
  private static OutOfMemoryError outOfMemory(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof OutOfMemoryError e) {
        return e;
      }
    }
    return null;
  }

  /** What an out-of-memory error tells the user: the heap's size and how to give it more. */
  static String outOfMemoryMessage() {
    long heap = Runtime.getRuntime().maxMemory();
    String size =
        heap >= 1L << 30
            ? String.format(Locale.ROOT, "%.1f GB", heap / (double) (1L << 30))
            : String.format(Locale.ROOT, "%.1f MB", heap / (double) (1L << 20));
    return "out of memory (the heap is at most "
        + size
        + "); give the JVM more, e.g. LARGECAT_JAVA_OPTS=-Xmx16g, or use a smaller shape or fewer"
        + " --threads";
  }
}
