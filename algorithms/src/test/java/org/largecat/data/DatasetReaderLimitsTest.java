package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the reader refuses before it can cost memory or mislead: stray labels, binary input, paths.
 */
class DatasetReaderLimitsTest {
  private static final ReadOptions LIBSVM = ReadOptions.of(TextFormat.LIBSVM);

  @TempDir Path dir;

  @Test
  void aStrayLargeLabelDoesNotMakeAHundredMillionClasses() throws IOException {
    Path f = dir.resolve("two.svm");
    Files.writeString(f, "0 1:1\n100000000 2:1\n");
    DataFileException e =
        assertThrows(DataFileException.class, () -> DatasetReader.read(f, LIBSVM));
    assertEquals(
        f
            + ": the largest label, 100000000, makes K = 100000001 classes, but only 2 distinct"
            + " labels occur; number the classes from 0 without large gaps",
        e.getMessage());
  }

  @Test
  void labelsWithGapsStillGiveKFromTheLargestUnlessMostClassesAreMissing() throws IOException {
    Path small = dir.resolve("small.svm");
    Files.writeString(small, "0 1:1\n7 2:1\n999 1:1\n");
    assertEquals(1000, DatasetReader.read(small, LIBSVM).classes());
    StringBuilder text = new StringBuilder();
    for (int label = 0; label < 3000; label += 7) {
      text.append(label).append(" 1:1\n");
    }
    Path spread = dir.resolve("spread.svm");
    Files.writeString(spread, text.append("2999 1:1\n"));
    assertEquals(3000, DatasetReader.read(spread, LIBSVM).classes());
  }

  @Test
  void gzipInputIsNamedAsNotText() throws IOException {
    Path f = dir.resolve("data.svm.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
      out.write("1 1:1\n".repeat(100).getBytes());
    }
    IOException e = assertThrows(IOException.class, () -> DatasetReader.read(f, LIBSVM));
    assertTrue(
        e.getMessage().startsWith(f + ": cannot read")
            && e.getMessage().endsWith("it is not UTF-8 text (a binary or compressed file?)"),
        e.getMessage());
  }

  @Test
  void aMissingFileAndADirectoryAreNamedWithTheReason() {
    Path missing = dir.resolve("absent.svm");
    IOException e = assertThrows(IOException.class, () -> DatasetReader.read(missing, LIBSVM));
    assertEquals(missing + ": cannot read: it does not exist", e.getMessage());
    IOException d = assertThrows(IOException.class, () -> DatasetReader.read(dir, LIBSVM));
    assertTrue(d.getMessage().startsWith(dir + ": cannot read: "), d.getMessage());
  }
}
