package org.largecat.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.largecat.bench.BenchProfile;
import org.largecat.bench.BenchRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code largecat bench}: the JMH suite, through JMH's own command line or a fixed {@link
 * BenchProfile}.
 *
 * <p>The suite and JMH are not in largecat.jar: the launcher puts {@code cli/target/bench-jars} on
 * the class path for this command only. So that the other commands and the help never load them,
 * this class and {@link BenchCompareCommand} name bench's types only inside the bodies that run the
 * suite, never in a field or a signature.
 */
@Command(
    name = "bench",
    subcommands = BenchCompareCommand.class,
    description = {
      "Runs the JMH suite, a fork per backend, and stops at the first failure.",
      "JMH-ARGS go to JMH as they are (e.g. -p backend=scalar,simd VectorOps; -rf json -rff FILE); JMH's own"
          + " help: largecat bench -- -h."
    })
final class BenchCommand implements Callable<Integer> {
  private final Largecat.Streams streams;
  private CommandSpec spec;

  @Option(
      names = "--profile",
      paramLabel = "short|full",
      description = {
        "A fixed selection instead of JMH-ARGS,"
            + " its JSON to --out and the machine's load to FILE.txt; short: for CI."
      })
  String profile;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Where --profile writes (default: results/bench/PROFILE.json).")
  Path output;

  @Parameters(
      paramLabel = "JMH-ARGS",
      description = "JMH's options and a benchmark regular expression.")
  List<String> jmhArgs = List.of();

  BenchCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  /**
   * JMH's options are unknown to picocli: they are collected, in order, with JMH's other arguments.
   */
  @Spec
  void passJmhOptionsThrough(CommandSpec spec) {
    this.spec = spec;
    spec.parser().unmatchedOptionsArePositionalParams(true);
  }

  @Override
  public Integer call() throws IOException {
    requireSuite(spec);
    if (profile == null) {
      if (output != null) {
        throw new ParameterException(
            spec.commandLine(), "--out goes with --profile (JMH itself writes to -rff FILE)");
      }
      return BenchRunner.run(jmhArgs.toArray(String[]::new), streams.out(), streams.err());
    }
    if (!jmhArgs.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "--profile takes no JMH arguments, got " + jmhArgs);
    }
    BenchProfile chosen;
    try {
      chosen = BenchProfile.byLabel(profile);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--profile: " + e.getMessage());
    }
    return BenchRunner.runProfile(chosen, output, streams.out(), streams.err());
  }

  /**
   * Fails with the fix when the suite's jars are not on the class path (largecat.jar run by itself,
   * without the launcher).
   */
  static void requireSuite(CommandSpec spec) {
    try {
      Class.forName(SUITE_CLASS, false, BenchCommand.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new ParameterException(
          spec.commandLine(),
          "the JMH suite is not on the class path: run it as ./largecat bench, which adds"
              + " cli/target/bench-jars");
    }
  }

  /** A class of the bench module, whose presence says the suite's jars are there. */
  private static final String SUITE_CLASS = "org.largecat.bench.BenchRunner";
}
