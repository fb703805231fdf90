package org.largecat.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.json.SnakeCaseJson;

class ResultTableTest {
  /**
   * The CSV a table writes keeps a field with a comma or a quote in one column (RFC 4180 quoting).
   */
  @Test
  void fieldsWithCommasAndQuotesAreQuoted(@TempDir Path dir) throws Exception {
    ResultTable table = new ResultTable("t", List.of("name", "value", "note"));
    table.add("kjv-nextword", 1.5, "5 epochs, not 50 (K = 12,544); \"sampled\"");
    table.add("plain", null, "no comma");
    table.write(dir);
    assertEquals(
        List.of(
            "name,value,note",
            "kjv-nextword,1.5,\"5 epochs, not 50 (K = 12,544); \"\"sampled\"\"\"",
            "plain,,no comma"),
        Files.readAllLines(dir.resolve("t.csv")));
  }

  /**
   * The JSON is an array of row objects keyed by column: numbers, booleans, strings, and null for
   * no figure.
   */
  @Test
  void jsonRowsKeepEachValuesType(@TempDir Path dir) throws Exception {
    ResultTable table =
        new ResultTable("t", List.of("method", "iterations", "test_loglik", "meets_targets"));
    table.add("a \"quoted\" name", 12, -1.25, true);
    table.add("none", null, Double.NaN, false);
    table.write(dir);
    JsonArray rows = SnakeCaseJson.parse(Files.readString(dir.resolve("t.json"))).getAsJsonArray();
    assertEquals(2, rows.size());
    JsonObject first = rows.get(0).getAsJsonObject();
    assertEquals("a \"quoted\" name", first.get("method").getAsString());
    assertEquals(12, first.get("iterations").getAsInt());
    assertEquals(-1.25, first.get("test_loglik").getAsDouble());
    assertTrue(first.get("meets_targets").getAsJsonPrimitive().isBoolean());
    JsonObject second = rows.get(1).getAsJsonObject();
    assertTrue(
        second.get("iterations").isJsonNull() && second.get("test_loglik").isJsonNull(),
        second.toString());
  }

  @Test
  void columnsThatAreNotSnakeCaseAreRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> new ResultTable("t", List.of("method", "N_train")));
    assertThrows(IllegalArgumentException.class, () -> new ResultTable("t", List.of("umax-raman")));
  }
}
