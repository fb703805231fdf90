package org.largecat.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One benchmark's result in a JMH JSON file ({@code -rf json}, or a {@link BenchProfile}'s output):
 * what ran (benchmark, mode, parameters, and the backends {@link BackendRecorder} stored, if any)
 * and its score with JMH's error (the half-width of the 99.9% confidence interval, NaN when JMH had
 * too few samples to give one), in the file's unit.
 */
public record JmhResult(
    String benchmark,
    String mode,
    SortedMap<String, String> params,
    double score,
    double error,
    String unit,
    String backends) {

  private static final String PREFIX = "org.largecat.bench.";

  /** Benchmark, mode and parameters: what names one result in a file. */
  public String key() {
    return benchmark + " " + mode + (params.isEmpty() ? "" : " " + describeParams());
  }

  /** The benchmark without the suite's package. */
  public String shortName() {
    return benchmark.startsWith(PREFIX) ? benchmark.substring(PREFIX.length()) : benchmark;
  }

  /** {@code name=value} pairs, sorted by name, separated by spaces. */
  public String describeParams() {
    return params.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(" "));
  }

  /** Whether a higher score is better: throughput; every other mode scores time per operation. */
  public boolean throughput() {
    return mode.equals("thrpt");
  }

  /** The score as seconds per operation, whatever the mode and unit. */
  public double secondsPerOp() {
    double seconds = unitSeconds();
    return throughput() ? seconds / score : score * seconds;
  }

  /**
   * JMH's error as seconds per operation (for throughput, to first order: error / score²); 0 when
   * JMH gave none.
   */
  public double secondsPerOpError() {
    if (Double.isNaN(error)) {
      return 0;
    }
    double seconds = unitSeconds();
    return throughput() ? seconds * error / (score * score) : error * seconds;
  }

  private double unitSeconds() {
    return seconds(
        throughput()
            ? unit.substring("ops/".length())
            : unit.substring(0, unit.length() - "/op".length()));
  }

  private static double seconds(String timeUnit) {
    return switch (timeUnit) {
      case "ns" -> 1e-9;
      case "us" -> 1e-6;
      case "ms" -> 1e-3;
      case "s" -> 1;
      case "min" -> 60;
      case "hr" -> 3600;
      case "day" -> 86400;
      default -> Double.NaN;
    };
  }

  /**
   * Reads every result of a JMH JSON file.
   *
   * @throws IOException naming the file, and the entry and field where it is not what JMH writes:
   *     unreadable, not JSON, not an array of results, a field missing or of the wrong type, an
   *     unknown mode or unit, a score that is not a positive finite number, or two results with the
   *     same key
   */
  public static List<JmhResult> read(Path file) throws IOException {
    JsonElement root;
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      root = JsonParser.parseReader(reader);
    } catch (NoSuchFileException e) {
      throw new IOException(file + ": no such file");
    } catch (JsonParseException e) {
      throw new IOException(
          file
              + ": not JSON: "
              + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
    }
    if (!root.isJsonArray()) {
      throw new IOException(
          file
              + ": not a JMH result file: expected a JSON array of results, found "
              + (root.isJsonNull() ? "nothing" : root.isJsonObject() ? "an object" : "a " + root));
    }
    JsonArray entries = root.getAsJsonArray();
    List<JmhResult> results = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      JmhResult r = parse(file, i + 1, entries.get(i));
      Integer before = seen.put(r.key(), i + 1);
      if (before != null) {
        throw new IOException(
            file + ": results " + before + " and " + (i + 1) + " are both " + r.key());
      }
      results.add(r);
    }
    return results;
  }

  private static JmhResult parse(Path file, int number, JsonElement element) throws IOException {
    String where = file + ": result " + number;
    if (!element.isJsonObject()) {
      throw new IOException(where + ": expected an object, found " + element);
    }
    JsonObject o = element.getAsJsonObject();
    String benchmark = string(o, "benchmark", where);
    where += " (" + benchmark + ")";
    String mode = string(o, "mode", where);
    if (!List.of("thrpt", "avgt", "sample", "ss").contains(mode)) {
      throw new IOException(
          where + ": unknown mode '" + mode + "'; JMH's are thrpt, avgt, sample, ss");
    }
    SortedMap<String, String> params = new TreeMap<>();
    if (o.has("params") && !o.get("params").isJsonNull()) {
      if (!o.get("params").isJsonObject()) {
        throw new IOException(where + ": params is not an object");
      }
      for (Map.Entry<String, JsonElement> p : o.getAsJsonObject("params").entrySet()) {
        params.put(
            p.getKey(),
            p.getValue().isJsonPrimitive() ? p.getValue().getAsString() : p.getValue().toString());
      }
    }
    if (!o.has("primaryMetric") || !o.get("primaryMetric").isJsonObject()) {
      throw new IOException(where + ": no primaryMetric object");
    }
    JsonObject metric = o.getAsJsonObject("primaryMetric");
    double score = number(metric, "score", where + ": primaryMetric");
    if (!(score > 0 && score < Double.POSITIVE_INFINITY)) {
      throw new IOException(
          where + ": primaryMetric.score " + score + " is not a positive finite number");
    }
    double error =
        metric.has("scoreError")
            ? number(metric, "scoreError", where + ": primaryMetric")
            : Double.NaN;
    String unit = string(metric, "scoreUnit", where + ": primaryMetric");
    JmhResult r = new JmhResult(benchmark, mode, params, score, error, unit, backends(o));
    boolean unitFitsMode = mode.equals("thrpt") ? unit.startsWith("ops/") : unit.endsWith("/op");
    if (!unitFitsMode || Double.isNaN(r.unitSeconds())) {
      throw new IOException(
          where
              + ": unit '"
              + unit
              + "' does not fit mode "
              + mode
              + " (expected "
              + (mode.equals("thrpt") ? "ops/TIME" : "TIME/op")
              + ", TIME one of ns, us, ms, s, min, hr, day)");
    }
    return r;
  }

  /**
   * The label of the {@link BackendRecorder} result without its prefix, or null if there is none.
   */
  private static String backends(JsonObject o) {
    if (!o.has("secondaryMetrics") || !o.get("secondaryMetrics").isJsonObject()) {
      return null;
    }
    for (String label : o.getAsJsonObject("secondaryMetrics").keySet()) {
      if (label.startsWith(BackendRecorder.LABEL_PREFIX)) {
        return label.substring(BackendRecorder.LABEL_PREFIX.length());
      }
    }
    return null;
  }

  private static String string(JsonObject o, String field, String where) throws IOException {
    JsonElement e = o.get(field);
    if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
      throw new IOException(
          where + ": " + field + (e == null ? " is missing" : " is not a string: " + e));
    }
    return e.getAsString();
  }

  /** A number, or JMH's strings "NaN", "Infinity", "-Infinity". */
  private static double number(JsonObject o, String field, String where) throws IOException {
    JsonElement e = o.get(field);
    if (e != null && e.isJsonPrimitive()) {
      if (e.getAsJsonPrimitive().isNumber()) {
        return e.getAsDouble();
      }
      switch (e.getAsString()) {
        case "NaN" -> {
          return Double.NaN;
        }
        case "Infinity" -> {
          return Double.POSITIVE_INFINITY;
        }
        case "-Infinity" -> {
          return Double.NEGATIVE_INFINITY;
        }
        default -> {}
      }
    }
    throw new IOException(
        where + "." + field + (e == null ? " is missing" : " is not a number: " + e));
  }
}
