package org.largecat.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/**
 * The {@code largecat} command: its subcommands, their shared {@code --help} and {@code --version},
 * and the exit codes.
 */
@Command(
    name = "largecat",
    mixinStandardHelpOptions = true,
    scope = ScopeType.INHERIT,
    versionProvider = Largecat.Version.class,
    description = "Training and evaluation for categorical distributions with many classes.",
    subcommands = {
      KernelsCommand.class,
      BenchCommand.class,
      TrainCommand.class,
      TuneCommand.class,
      EvaluateCommand.Evaluate.class,
      EvaluateCommand.Predict.class,
      DataCommand.class,
      CaviCommand.class,
      ReproduceCommand.class,
      SynthCommand.class
    })
public final class Largecat {
  private Largecat() {}

  /**
   * The standard streams of one run: commands print to these, so that tests can run the command in
   * process.
   */
  record Streams(InputStream in, PrintStream out, PrintStream err) {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.in, System.out, System.err));
  }

  /**
   * Runs the command and returns its exit status: 0 done, 2 bad usage or bad input, else the
   * command's own.
   */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    CommandLine command = commandLine(new Streams(in, out, err));
    try {
      return command.execute(args);
    } finally {
      command.getOut().flush();
      command.getErr().flush();
    }
  }

  /** The whole command tree, printing its help and errors to {@code streams}. */
  static CommandLine commandLine(Streams streams) {
    CommandLine command = new CommandLine(new Largecat(), new StreamsFactory(streams));
    OptionTypes.registerLabels(command);
    command.setOut(
        new PrintWriter(new OutputStreamWriter(streams.out(), streams.out().charset()), true));
    command.setErr(
        new PrintWriter(new OutputStreamWriter(streams.err(), streams.err().charset()), true));
    command.setParameterExceptionHandler(
        (e, args) -> {
          // One line that names the option and why, not the whole usage. picocli checks for missing
          // options before unknown ones, but a misspelt option is the likelier cause of both.
          CommandLine failed = e.getCommandLine();
          String name = failed.getCommandSpec().qualifiedName();
          String message =
              e instanceof CommandLine.MissingParameterException
                      && !failed.getUnmatchedArguments().isEmpty()
                  ? "Unknown option: '" + failed.getUnmatchedArguments().getFirst() + "'"
                  : e.getMessage();
          failed.getErr().println(name + ": " + message);
          failed.getErr().println("see '" + name + " --help'");
          return failed.getCommandSpec().exitCodeOnInvalidInput();
        });
    command.setExecutionExceptionHandler(
        (e, failed, parsed) -> {
          if (e instanceof IOException || e instanceof IllegalArgumentException) {
            // Bad input files and bad values: the message names the file, line or argument.
            failed
                .getErr()
                .println(failed.getCommandSpec().qualifiedName() + ": " + e.getMessage());
            return failed.getCommandSpec().exitCodeOnInvalidInput();
          }
          throw e;
        });
    return command;
  }

  /**
   * Creates the commands that print, handing them the run's streams; everything else as picocli
   * would.
   */
  private record StreamsFactory(Streams streams) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      try {
        return type.getDeclaredConstructor(Streams.class).newInstance(streams);
      } catch (NoSuchMethodException e) {
        return CommandLine.defaultFactory().create(type);
      }
    }
  }

  /** The project version, which the build writes into {@code version.txt}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      try (InputStream in = Largecat.class.getResourceAsStream("version.txt")) {
        return new String[] {
          "largecat " + new String(in.readAllBytes(), StandardCharsets.UTF_8).strip()
        };
      }
    }
  }
}
