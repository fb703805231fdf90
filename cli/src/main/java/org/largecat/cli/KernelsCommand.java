package org.largecat.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.largecat.kernel.BackendCatalog;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code largecat kernels}: the backend listing, and {@code eval} of functions on standard input.
 */
@Command(
    name = "kernels",
    description = "Lists the backends, why any is unavailable, and auto's choice per family.",
    subcommands = KernelsCommand.Eval.class)
final class KernelsCommand implements Callable<Integer> {
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

  private final Largecat.Streams streams;

  KernelsCommand(Largecat.Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() {
    list(streams.out());
    return 0;
  }

  /** {@code largecat kernels eval}. */
  @Command(
      name = "eval",
      description =
          "Evaluates FUNCTION for each line of standard input (its inputs) and prints"
              + " a line of its outputs, tab-separated.")
  static final class Eval implements Callable<Integer> {
    private final Largecat.Streams streams;

    @Parameters(
        paramLabel = "FUNCTION",
        description = "The function; its columns are listed below.")
    EvalFunction function;

    @Option(
        names = "--backend",
        paramLabel = "NAME",
        description = "A backend to force (see 'largecat kernels').")
    String backend;

    Eval(Largecat.Streams streams) {
      this.streams = streams;
    }

    @Spec
    void listFunctions(CommandSpec spec) {
      spec.usageMessage()
          .footer("%nFUNCTION and its columns (inputs -> outputs):%n" + EvalFunction.usage());
    }

    @Override
    public Integer call() {
      Kernels kernels =
          backend == null ? Kernels.get() : Kernels.of(backend.toLowerCase(Locale.ROOT));
      if (backend != null) {
        streams.err().println("largecat: " + kernels.report(Kernels.catalog()));
      }
      return eval(function, kernels, streams.in(), streams.out(), streams.err());
    }
  }

  private static void list(PrintStream out) {
    Kernels selected = Kernels.get();
    BackendCatalog catalog = Kernels.catalog();
    out.printf(
        "largecat kernels on Java %s (%s), %s %s, %d cores%n",
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        Runtime.getRuntime().availableProcessors());
    out.printf("%n%-8s %-11s %s%n", "backend", "status", "families, or why not available");
    for (BackendCatalog.Entry e : catalog.entries()) {
      if (e.available()) {
        List<String> families = new ArrayList<>();
        for (KernelFamily f : KernelFamily.values()) {
          if (e.families().get(f) != null) {
            families.add(f.label());
          }
        }
        out.printf("%-8s %-11s %s%n", e.name(), "available", String.join(" ", families));
        if (e.detail() != null) {
          out.printf("%-20s %s%n", "", e.detail());
        }
      } else {
        out.printf("%-8s %-11s %s (fix: %s)%n", e.name(), "unavailable", e.reason(), e.fix());
      }
    }
    Kernels auto = Kernels.of(Kernels.AUTO);
    out.printf(
        "%n%-18s %-8s %s%n",
        "family",
        "auto",
        "this run (backend="
            + Kernels.requestedBackend()
            + (selected.checked() ? ", checked" : "")
            + ")");
    for (KernelFamily f : KernelFamily.values()) {
      out.printf("%-18s %-8s %s%n", f.label(), auto.backendOf(f), selected.backendOf(f));
    }
  }

  /**
   * Reads one case per line from {@code in}, evaluates them all and prints one line each; returns 2
   * with a line on {@code err} per malformed line, evaluating nothing.
   */
  static int eval(
      EvalFunction function, Kernels kernels, InputStream in, PrintStream out, PrintStream err) {
    List<double[]> rows = new ArrayList<>();
    int bad = 0;
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        String problem = null;
        double[] row = null;
        String[] tokens = line.trim().isEmpty() ? new String[0] : line.trim().split("\\s+");
        if (tokens.length != function.inputCount()) {
          problem =
              "expected "
                  + function.inputCount()
                  + " number"
                  + (function.inputCount() == 1 ? "" : "s")
                  + " ("
                  + function.inputNames()
                  + "), found "
                  + tokens.length;
        } else {
          row = new double[tokens.length];
          for (int i = 0; i < tokens.length && problem == null; i++) {
            Double value = parse(tokens[i]);
            if (value == null) {
              problem = "'" + tokens[i] + "' is not a decimal number";
            } else {
              row[i] = value;
            }
          }
          if (problem == null) {
            problem = function.invalid(row);
          }
        }
        if (problem != null) {
          err.println(
              "largecat kernels eval " + function.label() + ": line " + number + ": " + problem);
          bad++;
        } else {
          rows.add(row);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading standard input", e);
    }
    if (bad > 0) {
      err.println(
          "largecat kernels eval "
              + function.label()
              + ": "
              + bad
              + " malformed line"
              + (bad == 1 ? "" : "s")
              + "; nothing evaluated");
      return 2;
    }
    double[][] inputs = new double[function.inputCount()][rows.size()];
    for (int r = 0; r < rows.size(); r++) {
      for (int c = 0; c < inputs.length; c++) {
        inputs[c][r] = rows.get(r)[c];
      }
    }
    double[][] outputs = new double[function.outputCount()][rows.size()];
    function.evaluate(kernels, inputs, outputs);
    StringBuilder s = new StringBuilder();
    for (int r = 0; r < rows.size(); r++) {
      s.setLength(0);
      for (int c = 0; c < outputs.length; c++) {
        s.append(c == 0 ? "" : "\t").append(outputs[c][r]);
      }
      out.println(s);
    }
    out.flush();
    return 0;
  }

  /** A decimal number, or nan / inf / infinity with an optional sign; null for anything else. */
  private static Double parse(String token) {
    String t = token.toLowerCase(Locale.ROOT);
    String unsigned = t.startsWith("+") || t.startsWith("-") ? t.substring(1) : t;
    if (unsigned.equals("inf") || unsigned.equals("infinity")) {
      return t.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (unsigned.equals("nan")) {
      return Double.NaN;
    }
    return DECIMAL.matcher(token).matches() ? Double.parseDouble(token) : null;
  }
}
