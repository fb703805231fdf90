package org.largecat.cli.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the log of a {@code largecat spark} run goes: without {@code --debug}, Spark's warnings and
 * the stack traces of failed tasks go to a file in the temporary directory, which the one-line
 * error of a failed run names and a run that succeeds removes; with {@code --debug}, to standard
 * error. A configuration the user names (log4j2.configurationFile) is left alone.
 */
final class SparkLog {
  private static final String QUIET = "org/largecat/cli/spark/log4j2.properties";
  private static final String DEBUG = "org/largecat/cli/spark/log4j2-debug.properties";
  private static final String FILE_PROPERTY = "largecat.spark.log";

  /** The log file, or null when the log goes elsewhere. */
  private final Path file;

  private SparkLog(Path file) {
    this.file = file;
  }

  /**
   * Sets up the logging before Spark loads it (once per JVM: a later call finds it set up and keeps
   * it).
   */
  static SparkLog configure(boolean debug) {
    String named = System.getProperty("log4j2.configurationFile");
    if (named == null) {
      if (debug) {
        System.setProperty("log4j2.configurationFile", DEBUG);
      } else {
        System.setProperty(
            FILE_PROPERTY,
            Path.of(System.getProperty("java.io.tmpdir"))
                .resolve("largecat-spark-" + ProcessHandle.current().pid() + ".log")
                .toString());
        System.setProperty("log4j2.configurationFile", QUIET);
      }
    } else if (!named.equals(QUIET)) {
      return new SparkLog(null);
    }
    String file = System.getProperty(FILE_PROPERTY);
    return new SparkLog(file == null ? null : Path.of(file));
  }

  /** Where to read more about a failure: "; Spark's log: FILE", or nothing without a file. */
  String pointer() {
    return file != null && Files.exists(file)
        ? "; Spark's log: " + file + " (--debug prints it here)"
        : "";
  }

  /** {@code failure} with {@link #pointer()} added to its message. */
  IOException explain(IOException failure) {
    String pointer = pointer();
    return pointer.isEmpty() ? failure : new IOException(failure.getMessage() + pointer, failure);
  }

  /** {@code failure} with {@link #pointer()} added to its message. */
  IllegalArgumentException explain(IllegalArgumentException failure) {
    String pointer = pointer();
    return pointer.isEmpty()
        ? failure
        : new IllegalArgumentException(failure.getMessage() + pointer, failure);
  }

  /** After a run that succeeded: its warnings are of no more use. */
  void discard() {
    try {
      if (file != null) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      // A log left in the temporary directory harms no one.
    }
  }
}
