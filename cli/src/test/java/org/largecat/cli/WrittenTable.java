package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A result table that {@code largecat reproduce} wrote, read back from its CSV. */
final class WrittenTable {
  private static final Set<String> STOPS =
      Set.of("converged", "max_epochs", "max_seconds", "fixed_epochs", "diverged");

  private WrittenTable() {}

  /** The rows of the table, each a map from column name to cell. */
  static List<Map<String, String>> rows(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    String[] header = lines.get(0).split(",", -1);
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      assertEquals(header.length, cells.length, line);
      Map<String, String> row = new HashMap<>();
      for (int c = 0; c < header.length; c++) {
        row.put(header[c], cells[c]);
      }
      rows.add(row);
    }
    return rows;
  }

  static double number(Map<String, String> row, String column) {
    return Double.parseDouble(row.get(column));
  }

  /**
   * Checks how a training run ended: stopped_because is a known reason, converged is true or false
   * and agrees with it (a run the rule or its tolerance stopped converged; one stopped by its most
   * epochs or by overflow did not; a run kept to a fixed length or time may be either), and epochs,
   * where the table has it, is a whole number (0 for a budget short of an epoch).
   */
  static void assertRunEnd(Map<String, String> row) {
    String stop = row.get("stopped_because");
    String converged = row.get("converged");
    assertTrue(STOPS.contains(stop), "stopped_because: " + row);
    assertTrue(converged.equals("true") || converged.equals("false"), "converged: " + row);
    if (stop.equals("converged")) {
      assertEquals("true", converged, row.toString());
    } else if (stop.equals("max_epochs") || stop.equals("diverged")) {
      assertEquals("false", converged, row.toString());
    }
    if (row.containsKey("epochs")) {
      assertTrue(Integer.parseInt(row.get("epochs")) >= 0, "epochs: " + row);
    }
  }
}
