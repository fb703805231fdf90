package org.largecat.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.largecat.AtomicWrite;
import org.largecat.json.Json;

/**
 * An experiment's table: printed aligned, and written as CSV and as JSON (an array of row objects).
 */
public final class ResultTable {
  private final String name;
  private final List<String> columns;
  private final List<List<Object>> rows = new ArrayList<>();

  /** The columns are the JSON rows' keys too, so they must be snake_case. */
  public ResultTable(String name, List<String> columns) {
    for (String column : columns) {
      if (!Json.SNAKE_CASE.matcher(column).matches()) {
        throw new IllegalArgumentException("column '" + column + "' is not snake_case");
      }
    }
    this.name = name;
    this.columns = List.copyOf(columns);
  }

  /** The table's name: its files are NAME.csv and NAME.json. */
  public String name() {
    return name;
  }

  /**
   * Adds a row: one value per column; doubles print with 4 significant digits, null and NaN (no
   * figure) as '-'.
   */
  public void add(Object... values) {
    if (values.length != columns.size()) {
      throw new IllegalArgumentException(
          values.length + " values for " + columns.size() + " columns");
    }
    rows.add(java.util.Arrays.asList(values));
  }

  public void print(PrintStream out) {
    int[] width = new int[columns.size()];
    for (int c = 0; c < width.length; c++) {
      width[c] = columns.get(c).length();
      for (List<Object> row : rows) {
        width[c] = Math.max(width[c], text(row.get(c)).length());
      }
    }
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < width.length; c++) {
      line.append(String.format("%-" + (width[c] + 2) + "s", columns.get(c)));
    }
    out.println(line.toString().stripTrailing());
    for (List<Object> row : rows) {
      line.setLength(0);
      for (int c = 0; c < width.length; c++) {
        line.append(String.format("%-" + (width[c] + 2) + "s", text(row.get(c))));
      }
      out.println(line.toString().stripTrailing());
    }
  }

  /** Writes NAME.csv and NAME.json into {@code dir} and returns their paths. */
  public List<Path> write(Path dir) throws IOException {
    AtomicWrite.createDirectories(dir);
    StringBuilder csv =
        new StringBuilder(String.join(",", columns.stream().map(ResultTable::csvField).toList()))
            .append('\n');
    List<Map<String, Object>> json = new ArrayList<>();
    for (List<Object> row : rows) {
      Map<String, Object> fields = new LinkedHashMap<>();
      for (int c = 0; c < columns.size(); c++) {
        Object v = row.get(c);
        csv.append(c == 0 ? "" : ",").append(v == null ? "" : csvField(v.toString()));
        fields.put(
            columns.get(c),
            v == null || v instanceof Number || v instanceof Boolean ? v : v.toString());
      }
      csv.append('\n');
      json.add(fields);
    }
    Path csvFile = dir.resolve(name + ".csv");
    Path jsonFile = dir.resolve(name + ".json");
    AtomicWrite.writeString(csvFile, csv.toString());
    Json.write(jsonFile, json);
    return List.of(csvFile, jsonFile);
  }

  /**
   * A CSV field as RFC 4180 writes it: quoted, with its quotes doubled, when it holds a comma,
   * quote or line break.
   */
  private static String csvField(String s) {
    return s.contains(",") || s.contains("\"") || s.contains("\n")
        ? "\"" + s.replace("\"", "\"\"") + "\""
        : s;
  }

  private static String text(Object v) {
    if (v == null || (v instanceof Double d && Double.isNaN(d))) {
      return "-";
    }
    return v instanceof Double d ? String.format(Locale.ROOT, "%.4g", d) : v.toString();
  }
}
