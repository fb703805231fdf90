package org.largecat.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CSV a table writes keeps a field with a comma or a quote in one column (RFC 4180 quoting). */
class ResultTableTest {
  @Test
  void fieldsWithCommasAndQuotesAreQuoted(@TempDir Path dir) throws Exception {
    ResultTable table = new ResultTable("t", List.of("name", "value", "note"));
    table.add("kjv-nextword", 1.5, "5 epochs, not 50 (K = 12,544); \"sampled\"");
    table.add("plain", null, "no comma");
    table.write(dir);
    assertEquals(List.of("name,value,note", "kjv-nextword,1.5,\"5 epochs, not 50 (K = 12,544); \"\"sampled\"\"\"",
        "plain,,no comma"), Files.readAllLines(dir.resolve("t.csv")));
  }
}
