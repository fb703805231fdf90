package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A header's D and K size the model: one far beyond what the rows use is refused, one within the
 * bound of docs/datasets.md is kept, and a test file's shape comes from its training set.
 */
class DatasetHeaderShapeTest {
  @TempDir Path dir;

  /** 20 rows, labels below 4 and feature indices below 5, under the header {@code n d k}. */
  private Path twentyRows(String header) throws Exception {
    StringBuilder text = new StringBuilder(header).append('\n');
    for (int i = 0; i < 20; i++) {
      text.append(i % 4).append(' ').append(i % 5).append(":1\n");
    }
    return Files.writeString(dir.resolve("d.txt"), text);
  }

  private static final ReadOptions XC = ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION);

  @Test
  void aHeaderFarBeyondTheRowsIsRefused() throws Exception {
    Path file = twentyRows("20 15000 15000");
    DataFileException e = assertThrows(DataFileException.class, () -> DatasetReader.read(file, XC));
    assertTrue(
        e.getMessage()
            .contains(
                "the header declares D = 15000 features, but the largest feature index in the"
                    + " rows is 4"),
        e.getMessage());
    assertTrue(e.getMessage().contains("give D = 5"), e.getMessage());
    assertTrue(e.getMessage().startsWith(file + ":1: "), e.getMessage());
  }

  @Test
  void aHeaderKFarBeyondTheLabelsIsRefused() throws Exception {
    Path file = twentyRows("20 5 4000");
    DataFileException e = assertThrows(DataFileException.class, () -> DatasetReader.read(file, XC));
    assertTrue(
        e.getMessage().contains("the header declares L = 4000 classes, but the largest label"),
        e.getMessage());
  }

  @Test
  void aHeaderWithinTheBoundOrSmallIsKept() throws Exception {
    Dataset d = DatasetReader.read(twentyRows("20 50 40"), XC);
    assertEquals(50, d.columns());
    assertEquals(40, d.classes());
    d = DatasetReader.read(twentyRows("20 1000 900"), XC);
    assertEquals(1000, d.columns());
  }

  @Test
  void aTestFileTakesItsTrainingSetsShapeUnchecked() throws Exception {
    Dataset d = DatasetReader.read(twentyRows("20 15000 15000"), XC.withShape(15000, 15000));
    assertEquals(15000, d.columns());
    assertEquals(15000, d.classes());
  }
}
