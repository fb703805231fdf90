package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BoundedLineReaderTest {
  private static final Path FILE = Path.of("data.txt");

  /** The lines BufferedReader.readLine gives, which this reader must match. */
  private static List<String> expected(String text) throws IOException {
    List<String> lines = new ArrayList<>();
    BufferedReader in = new BufferedReader(new StringReader(text));
    for (String line; (line = in.readLine()) != null; ) {
      lines.add(line);
    }
    return lines;
  }

  private static List<String> read(String text, int maxLine) throws IOException {
    BoundedLineReader in = new BoundedLineReader(new StringReader(text), FILE, maxLine);
    List<String> lines = new ArrayList<>();
    for (String line; (line = in.readLine()) != null; ) {
      lines.add(line);
    }
    assertNull(in.readLine());
    return lines;
  }

  @Test
  void splitsLinesAsBufferedReaderDoes() throws IOException {
    for (String text :
        new String[] {
          "",
          "a",
          "a\n",
          "a\nb",
          "a\r\nb\r\n",
          "a\rb\r",
          "\n\n",
          "\r\n\r\n",
          "a\r\r\nb",
          "x".repeat(70_000) + "\ny",
          "a".repeat(65_535) + "\r\nb"
        }) {
      assertEquals(expected(text), read(text, 1 << 20), () -> "text " + text.replace("\r", "\\r"));
    }
  }

  @Test
  void aLineOverTheCapIsRefusedWithItsLineNumber() {
    DataFileException e =
        assertThrows(DataFileException.class, () -> read("ok\n" + "y".repeat(11) + "\n", 10));
    assertEquals(2, e.line());
    assertEquals(
        "data.txt:2: the line is longer than 10 characters (is this a text data file?)",
        e.getMessage());
  }
}
