package org.largecat.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.largecat.Labelled;
import org.largecat.kernel.ElementwiseFunction;
import org.largecat.kernel.Kernels;

/**
 * The functions {@code largecat kernels eval} offers, each evaluated for all cases at once through
 * the batched SPI kernels. Inputs and outputs are column-major: {@code in[column][case]}.
 */
enum EvalFunction implements Labelled {
  NORMAL_LOGCDF("normal-logcdf", ElementwiseFunction.NORMAL_LOG_CDF, "x", "logPhi"),
  NORMAL_MILLS("normal-mills", ElementwiseFunction.NORMAL_MILLS_RATIO, "x", "phi/Phi"),
  TRUNCNORM("truncnorm", null, "mu side", "mean variance entropy") {
    @Override
    String invalid(double[] row) {
      return row[1] == 1 || row[1] == -1
          ? null
          : "side must be 1 (for [0,inf)) or -1 (for (-inf,0)), got " + row[1];
    }

    @Override
    void evaluate(Kernels kernels, double[][] in, double[][] out) {
      ElementwiseFunction[][] bySide = {
        {
          ElementwiseFunction.TRUNCATED_NORMAL_MEAN_POSITIVE,
          ElementwiseFunction.TRUNCATED_NORMAL_VARIANCE_POSITIVE,
          ElementwiseFunction.TRUNCATED_NORMAL_ENTROPY_POSITIVE
        },
        {
          ElementwiseFunction.TRUNCATED_NORMAL_MEAN_NEGATIVE,
          ElementwiseFunction.TRUNCATED_NORMAL_VARIANCE_NEGATIVE,
          ElementwiseFunction.TRUNCATED_NORMAL_ENTROPY_NEGATIVE
        }
      };
      for (int side = 0; side < 2; side++) {
        double sign = side == 0 ? 1 : -1;
        int[] cases = casesWhere(in[1], sign);
        double[] mu = gather(in[0], cases);
        double[] result = new double[cases.length];
        for (int moment = 0; moment < 3; moment++) {
          kernels.specialFunctions().apply(bySide[side][moment], cases.length, mu, 0, result, 0);
          scatter(result, cases, out[moment]);
        }
      }
    }
  },
  LOG_SIGMOID("log-sigmoid", ElementwiseFunction.LOG_SIGMOID, "x", "logsigma"),
  LAMBERTW0("lambertw0", ElementwiseFunction.LAMBERT_W0, "x", "W0(x)"),
  WRIGHT_OMEGA("wright-omega", ElementwiseFunction.WRIGHT_OMEGA, "x", "W0(e^x)"),
  PG_MEAN("pg-mean", ElementwiseFunction.POLYA_GAMMA_MEAN, "c", "tanh(c/2)/(2c)"),
  ISGD_UPDATE("isgd-update", null, "z u_old xnorm2 eta N K", "u a") {
    @Override
    String invalid(double[] row) {
      if (!(row[2] >= 0) || Double.isInfinite(row[2])) {
        return "xnorm2 must be finite and >= 0, got " + row[2];
      }
      if (!(row[3] > 0) || Double.isInfinite(row[3])) {
        return "eta must be finite and positive, got " + row[3];
      }
      if (!(row[4] >= 1) || row[4] != Math.rint(row[4]) || row[4] > 0x1p62) {
        return "N must be a whole number >= 1, got " + row[4];
      }
      if (!(row[5] >= 2) || row[5] != Math.rint(row[5]) || row[5] > 0x1p62) {
        return "K must be a whole number >= 2, got " + row[5];
      }
      return null;
    }

    @Override
    void evaluate(Kernels kernels, double[][] in, double[][] out) {
      // eta, N and K are per-call scalars of the kernel: one batched call per distinct triple.
      Map<List<Double>, List<Integer>> groups = new LinkedHashMap<>();
      for (int i = 0; i < in[0].length; i++) {
        groups
            .computeIfAbsent(List.of(in[3][i], in[4][i], in[5][i]), key -> new ArrayList<>())
            .add(i);
      }
      for (Map.Entry<List<Double>, List<Integer>> group : groups.entrySet()) {
        int[] cases = group.getValue().stream().mapToInt(Integer::intValue).toArray();
        double[] u = new double[cases.length];
        double[] a = new double[cases.length];
        kernels
            .implicitUpdates()
            .softmaxSingleClass(
                cases.length,
                gather(in[0], cases),
                0,
                gather(in[1], cases),
                0,
                gather(in[2], cases),
                0,
                group.getKey().get(0),
                group.getKey().get(1).longValue(),
                group.getKey().get(2).longValue(),
                u,
                0,
                a,
                0);
        scatter(u, cases, out[0]);
        scatter(a, cases, out[1]);
      }
    }
  };

  private final String label;
  private final ElementwiseFunction function;
  private final String[] inputs;
  private final String[] outputs;

  EvalFunction(String label, ElementwiseFunction function, String inputs, String outputs) {
    this.label = label;
    this.function = function;
    this.inputs = inputs.split(" "); // column names contain no spaces
    this.outputs = outputs.split(" ");
  }

  static EvalFunction byLabel(String label) {
    return Labelled.byLabel(EvalFunction.class, label, "FUNCTION");
  }

  static String usage() {
    StringBuilder s = new StringBuilder();
    for (EvalFunction f : values()) {
      s.append(
          String.format(
              "  %-14s %s -> %s%n",
              f.label, String.join(" ", f.inputs), String.join(" ", f.outputs)));
    }
    return s.toString();
  }

  @Override
  public String label() {
    return label;
  }

  int inputCount() {
    return inputs.length;
  }

  int outputCount() {
    return outputs.length;
  }

  String inputNames() {
    return String.join(" ", inputs);
  }

  /** Why a case cannot be evaluated, or null if it can. */
  String invalid(double[] row) {
    return null;
  }

  /** Evaluates all cases: one batched kernel call per function (and per group the kernel needs). */
  void evaluate(Kernels kernels, double[][] in, double[][] out) {
    kernels.specialFunctions().apply(function, in[0].length, in[0], 0, out[0], 0);
  }

  private static int[] casesWhere(double[] column, double value) {
    int count = 0;
    for (double v : column) {
      count += v == value ? 1 : 0;
    }
    int[] cases = new int[count];
    for (int i = 0, j = 0; i < column.length; i++) {
      if (column[i] == value) {
        cases[j++] = i;
      }
    }
    return cases;
  }

  private static double[] gather(double[] column, int[] cases) {
    double[] r = new double[cases.length];
    for (int j = 0; j < cases.length; j++) {
      r[j] = column[cases[j]];
    }
    return r;
  }

  private static void scatter(double[] values, int[] cases, double[] column) {
    for (int j = 0; j < cases.length; j++) {
      column[cases[j]] = values[j];
    }
  }
}
