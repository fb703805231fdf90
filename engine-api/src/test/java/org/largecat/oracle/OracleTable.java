package org.largecat.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Test vectors made by an arbitrary-precision oracle, read from {@code /oracle/NAME.tsv} on the
 * test class path. Format: lines starting with '#' are comments; the first other line names the
 * columns, tab-separated, output columns prefixed with '='; every further line is one case: inputs
 * as exact decimal doubles, outputs as decimals with at least 25 significant digits (or nan, inf,
 * -inf).
 */
public final class OracleTable {
  private final String name;
  private final List<String> inputNames = new ArrayList<>();
  private final List<String> outputNames = new ArrayList<>();
  private final List<Row> rows = new ArrayList<>();

  /** One case: the inputs and the true outputs, with the line it came from. */
  public record Row(int line, double[] inputs, Truth[] outputs) {}

  private OracleTable(String name) {
    this.name = name;
  }

  /** Loads {@code /oracle/NAME.tsv}. */
  public static OracleTable load(String name) {
    String resource = "/oracle/" + name + ".tsv";
    InputStream in = OracleTable.class.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException(
          "oracle table " + resource + " is not on the test class path");
    }
    OracleTable table = new OracleTable(name);
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] fields = line.split("\t");
        if (table.inputNames.isEmpty() && table.outputNames.isEmpty()) {
          for (String f : fields) {
            (f.startsWith("=") ? table.outputNames : table.inputNames)
                .add(f.replaceFirst("^=", ""));
          }
          continue;
        }
        table.rows.add(table.parse(resource, number, fields));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(resource, e);
    }
    if (table.rows.isEmpty()) {
      throw new IllegalStateException(resource + " has no cases");
    }
    return table;
  }

  private Row parse(String resource, int line, String[] fields) {
    int ni = inputNames.size();
    int no = outputNames.size();
    if (fields.length != ni + no) {
      throw new IllegalStateException(
          resource + ":" + line + ": expected " + (ni + no) + " fields, got " + fields.length);
    }
    double[] inputs = new double[ni];
    for (int i = 0; i < ni; i++) {
      inputs[i] = Double.parseDouble(fields[i]);
    }
    Truth[] outputs = new Truth[no];
    for (int j = 0; j < no; j++) {
      outputs[j] = Truth.parse(fields[ni + j]);
    }
    return new Row(line, inputs, outputs);
  }

  public String name() {
    return name;
  }

  public List<Row> rows() {
    return rows;
  }

  /** Index of the output column with this name. */
  public int output(String column) {
    int i = outputNames.indexOf(column);
    if (i < 0) {
      throw new IllegalArgumentException(
          name + " has no output column " + column + " (has " + outputNames + ")");
    }
    return i;
  }

  /** A true value: exact decimal, or a special value. */
  public record Truth(BigDecimal value, double special) {
    static Truth parse(String s) {
      return switch (s) {
        case "nan" -> new Truth(null, Double.NaN);
        case "inf" -> new Truth(null, Double.POSITIVE_INFINITY);
        case "-inf" -> new Truth(null, Double.NEGATIVE_INFINITY);
        default -> new Truth(new BigDecimal(s), 0);
      };
    }

    /** The double nearest the true value. */
    public double rounded() {
      return value == null ? special : value.doubleValue();
    }

    @Override
    public String toString() {
      return value == null ? Double.toString(special) : value.toString();
    }
  }
}
