package org.largecat.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import org.largecat.bench.BenchRunner;

/** The {@code largecat} command: dispatches to its subcommands. */
public final class Largecat {
  static final String USAGE = """
      usage: largecat kernels                          list the backends, why any is unavailable, and auto's choice
             largecat kernels eval FUNCTION [--backend NAME]
                                                       evaluate one case per line of standard input
             largecat bench [JMH options] [REGEX]      run the JMH suite, a fork per backend (e.g. -p backend=scalar,simd
                                                       VectorOps; -rf json -rff FILE); stops at the first failure
             largecat bench --profile short|full [--out FILE]
                                                       a fixed selection, JSON to FILE (results/bench/PROFILE.json)
                                                       and the machine's load to FILE.txt; short: ~6 min, for CI
      """ + BenchCompareCommand.USAGE + TrainCommand.USAGE + TuneCommand.USAGE + EvaluateCommand.USAGE + DataCommand.USAGE + CaviCommand.USAGE + ReproduceCommand.USAGE + """
             largecat synth simulate --users U --items I --choices K --latent d [--seed N] --out FILE [--truth MODEL]
                                                       draw users from model (1) with a correlated Sigma
             largecat synth fit --data FILE --latent d [--method vem|laplace|importance] --model OUT [--choices K]
                                [--threads N] [--iterations T] [--tolerance EPS] [--seed N] [--init MODEL] [--samples S]
                                [--embedding-steps N]
                                                       fit model (1) by variational EM (Algorithm 1)
             largecat synth generate --model FILE --users U --out FILE [--seed N]
                                                       draw synthetic users from a fitted model
             largecat synth report --real FILE --synthetic FILE [--json] [--truth MODEL --model MODEL]
                                                       marginal TV, pairwise Cramer's V; Sigma against the truth
      FUNCTION and its columns (inputs -> outputs):
      """ + EvalFunction.usage();

  private Largecat() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.in, System.out, System.err));
  }

  /** Runs the command and returns its exit status: 0 done, 2 bad usage or bad input. */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) throws Exception {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      (args.length == 0 ? err : out).print(USAGE);
      return args.length == 0 ? 2 : 0;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    try {
      return switch (args[0]) {
        case "kernels" -> KernelsCommand.run(rest, in, out, err);
        case "train" -> TrainCommand.run(rest, out, err);
        case "tune" -> TuneCommand.run(rest, out, err);
        case "evaluate" -> EvaluateCommand.evaluate(rest, out);
        case "predict" -> EvaluateCommand.predict(rest, out);
        case "data" -> DataCommand.run(rest, out, err);
        case "cavi" -> CaviCommand.run(rest, out, err);
        case "reproduce" -> ReproduceCommand.run(rest, out, err);
        case "synth" -> SynthCommand.run(rest, in, out, err);
        case "bench" -> rest.length > 0 && rest[0].equals("compare")
            ? BenchCompareCommand.run(Arrays.copyOfRange(rest, 1, rest.length), out)
            : BenchRunner.run(rest, out, err);
        default -> throw new UsageException("unknown command '" + args[0] + "'");
      };
    } catch (UsageException e) {
      err.println("largecat: " + e.getMessage());
      err.print(USAGE);
      return 2;
    } catch (java.io.IOException | IllegalArgumentException e) {
      // Bad input files and bad values: the message names the file, line or argument.
      err.println("largecat: " + e.getMessage());
      return 2;
    }
  }

  /** The command line itself is wrong. */
  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }
}
