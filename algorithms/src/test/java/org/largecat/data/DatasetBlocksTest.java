package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading in blocks gives the whole read's examples, checks and messages, block by block. */
class DatasetBlocksTest {
  private static final ReadOptions XC =
      ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION).withShape(6, 4);

  @TempDir Path dir;

  private Path file(String text) throws IOException {
    Path f = dir.resolve("data.txt");
    Files.writeString(f, text);
    return f;
  }

  private static String rows(int n) {
    StringBuilder s = new StringBuilder(n + " 6 4\n");
    for (int i = 0; i < n; i++) {
      s.append(i % 4);
      for (int j = i % 3; j < 6; j += 2) {
        s.append(' ').append(j).append(':').append(i * 0.25f - j);
      }
      s.append('\n');
    }
    return s.toString();
  }

  private static List<Dataset> all(Path f, ReadOptions options, int blockRows) throws IOException {
    List<Dataset> blocks = new ArrayList<>();
    try (DatasetBlocks in = DatasetBlocks.open(f, options, blockRows)) {
      for (Dataset b = in.next(); b != null; b = in.next()) {
        blocks.add(b);
        assertEquals(blocks.stream().mapToInt(Dataset::rows).sum(), in.examplesRead());
      }
      assertNull(in.next(), "after the end");
    }
    return blocks;
  }

  /** Block sizes that divide the rows, leave a tail, hold one row, and hold them all. */
  @ParameterizedTest(name = "blocks of {0}")
  @ValueSource(ints = {1, 3, 5, 17, 100})
  void blocksConcatenateToTheWholeRead(int blockRows) throws IOException {
    Path f = file(rows(17));
    Dataset whole = DatasetReader.read(f, XC);
    List<Dataset> blocks = all(f, XC, blockRows);
    assertEquals((17 + blockRows - 1) / blockRows, blocks.size());
    int row = 0;
    for (Dataset b : blocks) {
      assertTrue(b.rows() <= blockRows);
      assertEquals(6, b.columns());
      assertEquals(4, b.classes());
      for (int n = 0; n < b.rows(); n++, row++) {
        assertEquals(whole.labels()[row], b.labels()[n], "label of row " + row);
        for (int j = 0; j < 6; j++) {
          assertEquals(
              Float.floatToRawIntBits(whole.features().get(row, j)),
              Float.floatToRawIntBits(b.features().get(n, j)),
              "row " + row + ", column " + j);
        }
      }
    }
    assertEquals(17, row);
  }

  @Test
  void anErrorNamesTheLineOfTheFileNotOfTheBlock() throws IOException {
    String[] lines = rows(10).split("\n");
    lines[11 - 1] = "1 x:1";
    Path f = file(String.join("\n", lines) + "\n");
    try (DatasetBlocks in = DatasetBlocks.open(f, XC, 4)) {
      assertEquals(4, in.next().rows());
      assertEquals(4, in.next().rows());
      DataFileException e = assertThrows(DataFileException.class, in::next);
      assertEquals(11, e.line(), e.getMessage());
      assertEquals(f + ":11: feature index 'x' is not an integer", e.getMessage());
    }
  }

  @Test
  void aShortFileIsRefusedWhenItsEndIsReached() throws IOException {
    Path f = file(rows(5).replaceFirst("^5 ", "7 "));
    try (DatasetBlocks in = DatasetBlocks.open(f, XC, 2)) {
      in.next();
      in.next();
      DataFileException e = assertThrows(DataFileException.class, in::next);
      assertTrue(
          e.getMessage().endsWith("the file ends after 5 of the 7 rows its header declares"));
      assertEquals(6, e.line());
    }
  }

  @Test
  void extraRowsAreRefusedAcrossBlocks() throws IOException {
    Path f = file(rows(5).replaceFirst("^5 ", "3 "));
    DataFileException e = assertThrows(DataFileException.class, () -> all(f, XC, 2));
    assertEquals(f + ":5: the header declares 3 rows but the file has more", e.getMessage());
  }

  @Test
  void anEmptyFileAndAFileOfCommentsAreRefused() throws IOException {
    DataFileException empty = assertThrows(DataFileException.class, () -> all(file(""), XC, 2));
    assertEquals(dir.resolve("data.txt") + ": the file is empty", empty.getMessage());
    ReadOptions libsvm = ReadOptions.of(TextFormat.LIBSVM).withShape(6, 4);
    DataFileException none =
        assertThrows(DataFileException.class, () -> all(file("# x\n\n"), libsvm, 2));
    assertTrue(none.getMessage().endsWith(":2: the file has no examples"), none.getMessage());
  }

  @Test
  void aMissingFileNamesItself() {
    Path missing = dir.resolve("missing.txt");
    IOException e =
        assertThrows(IOException.class, () -> DatasetBlocks.open(missing, XC, 2).close());
    assertEquals(missing + ": cannot read: it does not exist", e.getMessage());
  }

  @Test
  void aBlockEndsEarlyAtItsValueBudget() throws IOException {
    int width = 1 << 12; // rows of 4096 values: a budget of 2^22 values holds 1024 of them
    int n = 1500;
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(0);
      for (int j = 0; j < width; j++) {
        s.append(' ').append(j + 1).append(":1");
      }
      s.append('\n');
    }
    Path f = file(s.toString());
    List<Dataset> blocks = all(f, ReadOptions.of(TextFormat.LIBSVM).withShape(width, 1), n);
    assertArrayEquals(
        new int[] {(int) (DatasetBlocks.MAX_VALUES / width), n - 1024},
        blocks.stream().mapToInt(Dataset::rows).toArray());
  }

  @Test
  void theShapeMustBeFixed() {
    assertThrows(
        IllegalArgumentException.class,
        () -> DatasetBlocks.open(dir, ReadOptions.of(TextFormat.LIBSVM), 10));
    assertThrows(IllegalArgumentException.class, () -> DatasetBlocks.open(dir, XC, 0));
  }
}
