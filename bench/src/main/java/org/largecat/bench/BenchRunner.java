package org.largecat.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.largecat.AtomicWrite;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the JMH suite for {@code largecat bench}: either JMH's own command line, or a {@link
 * BenchProfile}. Either way every fork stores the backends it resolved to ({@link
 * BackendRecorder}), and the first benchmark that fails (a backend that cannot run here, or one
 * that does not implement the measured family) stops the run with exit status 1, unless {@code -foe
 * false} is given.
 */
public final class BenchRunner {
  private BenchRunner() {}

  /**
   * Runs JMH's command line {@code args}: its options and a regular expression.
   *
   * @return 0 when every benchmark ran, 1 when one failed, 2 for a bad command line
   */
  public static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    CommandLineOptions cmd;
    try {
      cmd = new CommandLineOptions(args);
    } catch (CommandLineOptionException e) {
      err.println("largecat bench: " + e.getMessage());
      return 2;
    }
    Runner listing = new Runner(cmd);
    if (cmd.shouldHelp()) {
      cmd.showHelp();
      return 0;
    } else if (cmd.shouldList()) {
      listing.list();
      return 0;
    } else if (cmd.shouldListWithParams()) {
      listing.listWithParams(cmd);
      return 0;
    } else if (cmd.shouldListProfilers()) {
      cmd.listProfilers();
      return 0;
    } else if (cmd.shouldListResultFormats()) {
      cmd.listResultFormats();
      return 0;
    }
    return execute(
                recorded(new OptionsBuilder().parent(cmd), cmd.shouldFailOnError().hasValue()), err)
            == null
        ? 1
        : 0;
  }

  /**
   * Runs {@code profile} and writes its results as JSON to {@code output} (null: the profile's
   * default file), and the machine and its load to {@code output}.txt.
   *
   * @return 0 when every benchmark ran, 1 when one failed
   */
  public static int runProfile(BenchProfile profile, Path output, PrintStream out, PrintStream err)
      throws IOException {
    if (output == null) {
      output = profile.defaultOutput();
    }
    Path sidecar = Path.of(output + ".txt");
    AtomicWrite.createDirectories(output.toAbsolutePath().getParent());
    AtomicWrite.checkWritable(output);
    AtomicWrite.checkWritable(sidecar);
    String loadBefore = MachineLoad.describe();
    Instant start = Instant.now();
    List<RunResult> all = new ArrayList<>();
    for (BenchProfile.Run run : profile.runs()) {
      Collection<RunResult> results =
          execute(recorded(profile.configure(run, new OptionsBuilder()), false), err);
      if (results == null) {
        return 1;
      }
      all.addAll(results);
    }
    Duration took = Duration.between(start, Instant.now());
    ByteArrayOutputStream json = new ByteArrayOutputStream();
    try (PrintStream results = new PrintStream(json, false, StandardCharsets.UTF_8)) {
      ResultFormatFactory.getInstance(ResultFormatType.JSON, results).writeOut(all);
    }
    AtomicWrite.write(output, json::writeTo);
    AtomicWrite.writeString(
        sidecar,
        "profile "
            + profile.label()
            + ": "
            + all.size()
            + " results in "
            + took.toSeconds()
            + " s, started "
            + start
            + "\n"
            + CpuKind.ofThisMachine().map(CpuKind::sidecarLine).orElse("cpu: unknown")
            + "\n"
            + "before: "
            + loadBefore
            + "\n"
            + "after:  "
            + MachineLoad.describe()
            + "\n"
            + "java "
            + Runtime.version()
            + " "
            + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments())
            + "\n"
            + "OPENBLAS_NUM_THREADS="
            + System.getenv("OPENBLAS_NUM_THREADS")
            + "\n");
    out.println(
        "largecat bench: profile "
            + profile.label()
            + ", "
            + all.size()
            + " results in "
            + took.toSeconds()
            + " s: "
            + output
            + " (machine and load: "
            + sidecar
            + ")");
    return 0;
  }

  /**
   * Adds the backend recorder, and makes a failing benchmark stop the run unless the command line
   * said otherwise.
   */
  private static ChainedOptionsBuilder recorded(
      ChainedOptionsBuilder options, boolean failOnErrorGiven) {
    options.addProfiler(BackendRecorder.class);
    if (!failOnErrorGiven) {
      options.shouldFailOnError(true);
    }
    return options;
  }

  /** The results, or null after printing why the run stopped. */
  private static Collection<RunResult> execute(ChainedOptionsBuilder options, PrintStream err) {
    try {
      return new Runner(options.build()).run();
    } catch (RunnerException e) {
      err.println(
          "largecat bench: the run stopped: "
              + (e.getMessage() != null ? e.getMessage() : e.toString()));
      for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
        err.println("  caused by: " + cause);
      }
      return null;
    }
  }
}
