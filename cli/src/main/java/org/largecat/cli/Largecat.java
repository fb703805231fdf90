package org.largecat.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.largecat.IoErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
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
    footer = {
      "",
      "The papers named in the help (A&R, unbiased-scalable-softmax, categorical-from-binary,"
          + " synthetic-categorical-data) are cited in full in docs/references.md."
    })
public final class Largecat {
  /**
   * The subcommands, in the order the help lists them. They are added by {@link
   * #commandLine(Streams, String[])} rather than named in {@code @Command}: picocli builds every
   * command it is given by reflection, and a run needs only the one it names.
   */
  private static final List<Class<?>> COMMANDS =
      List.of(
          KernelsCommand.class,
          BenchCommand.class,
          TrainCommand.class,
          TuneCommand.class,
          EvaluateCommand.Evaluate.class,
          EvaluateCommand.Predict.class,
          DataCommand.class,
          CaviCommand.class,
          SparkCommand.class,
          ReproduceCommand.class,
          SynthCommand.class,
          AotTrainingCommand.class);

  @Option(
      names = "--debug",
      scope = ScopeType.INHERIT,
      description = "On an error, print its stack trace too.")
  boolean debug;

  private Largecat() {}

  /**
   * The standard streams of one run: commands print to these, so that tests can run the command in
   * process.
   */
  record Streams(InputStream in, PrintStream out, PrintStream err) {}

  public static void main(String[] args) throws Exception {
    // Made before the run: when the heap is too small even to build the command tree, there may be
    // no room left to make the message.
    byte[] outOfMemory =
        ("largecat: " + Failures.outOfMemoryMessage() + System.lineSeparator())
            .getBytes(System.err.charset());
    FileOutputStream err = new FileOutputStream(FileDescriptor.err);
    int status;
    try {
      status =
          run(
              args,
              System.in,
              new FileOutputStream(FileDescriptor.out),
              System.out.charset(),
              System.err);
    } catch (OutOfMemoryError e) {
      err.write(outOfMemory);
      status = Failures.RUN_FAILED;
    }
    System.exit(status);
  }

  /**
   * Runs the command with {@code out} as standard output and returns its exit status: 0 done, 1 the
   * run failed (or standard output could not be written), 2 bad usage or bad input.
   */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    return run(args, in, out, out.charset(), err);
  }

  /**
   * Runs the command, printing to {@code out} in {@code charset}. A write error on {@code out} is
   * an error of the run: PrintStream would swallow it, so it is caught beneath the PrintStream the
   * commands print to, and told with its reason.
   */
  static int run(
      String[] args, InputStream in, OutputStream out, Charset charset, PrintStream err) {
    return run(streams -> commandLine(streams, args), args, in, out, charset, err);
  }

  /** Runs {@code args} on the command tree {@code tree} makes (tests add commands to it). */
  static int run(
      Function<Streams, CommandLine> tree,
      String[] args,
      InputStream in,
      OutputStream out,
      Charset charset,
      PrintStream err) {
    WriteErrors written = new WriteErrors(out);
    PrintStream printed =
        new PrintStream(new BufferedOutputStream(written, 1 << 13), true, charset);
    CommandLine command = tree.apply(new Streams(in, printed, err));
    int status;
    try {
      status = command.execute(args);
    } catch (Error e) {
      // Errors pass picocli's handlers by.
      status = Failures.report(e, failedCommand(command), command.getErr(), debug(command));
    }
    command.getOut().flush();
    printed.flush();
    IOException writeError = written.failure();
    if (writeError != null && "Broken pipe".equals(writeError.getMessage())) {
      status = status != 0 ? status : Failures.BROKEN_PIPE;
    } else if (writeError != null
        || printed.checkError()
        || out instanceof PrintStream p && p.checkError()) {
      command
          .getErr()
          .println(
              failedCommand(command)
                  + ": cannot write standard output: "
                  + (writeError != null ? IoErrors.reason(writeError) : "a write error"));
      status = status != 0 ? status : Failures.RUN_FAILED;
    }
    command.getErr().flush();
    return status;
  }

  /** The qualified name of the (sub)command the arguments chose, for its messages. */
  private static String failedCommand(CommandLine command) {
    CommandLine.ParseResult parsed = command.getParseResult();
    if (parsed == null) {
      return command.getCommandSpec().qualifiedName();
    }
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    return parsed.commandSpec().qualifiedName();
  }

  /** Whether {@code --debug} was given, to the root command or any subcommand. */
  static boolean debug(CommandLine command) {
    for (CommandLine.ParseResult p = command.getParseResult(); p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--debug")) {
        return true;
      }
    }
    return false;
  }

  /** The whole command tree, printing its help and errors to {@code streams}. */
  static CommandLine commandLine(Streams streams) {
    return commandLine(streams, null);
  }

  /**
   * The command tree that {@code arguments} need, printing to {@code streams}: only the subcommand
   * that the first argument names, none for {@code --version} alone, and else (the root's help, an
   * unknown command, no arguments) every one; {@code arguments} null means every one. The root's
   * options take no values, so the first argument that is no option is the subcommand.
   */
  static CommandLine commandLine(Streams streams, String[] arguments) {
    StreamsFactory factory = new StreamsFactory(streams);
    CommandLine command = new CommandLine(new Largecat(), factory);
    for (Class<?> type : needed(arguments)) {
      command.addSubcommand(new CommandLine(type, factory));
    }
    OptionTypes.registerLabels(command);
    // The enums' values are shown in lower case (--step adaptive|sgd).
    command.setCaseInsensitiveEnumValuesAllowed(true);
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
        (e, failed, parsed) ->
            Failures.report(
                e, failed.getCommandSpec().qualifiedName(), failed.getErr(), debug(command)));
    return command;
  }

  private static List<Class<?>> needed(String[] args) {
    if (args == null) {
      return COMMANDS;
    }
    String first = Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().orElse(null);
    if (first == null) {
      boolean versionOnly =
          args.length > 0
              && Arrays.stream(args).allMatch(a -> a.equals("--version") || a.equals("-V"));
      return versionOnly ? List.of() : COMMANDS;
    }
    return COMMANDS.stream()
        .filter(c -> c.getAnnotation(Command.class).name().equals(first))
        .findFirst()
        .<List<Class<?>>>map(List::of)
        .orElse(COMMANDS);
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
