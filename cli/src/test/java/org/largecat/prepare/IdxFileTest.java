package org.largecat.prepare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.data.DataFileException;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;

class IdxFileTest {
  @TempDir Path dir;

  /** An IDX file of unsigned bytes: magic 0x0000080d, the sizes, then {@code data}. */
  static byte[] idx(int[] shape, byte[] data) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(0x0800 | shape.length);
    for (int size : shape) {
      out.writeInt(size);
    }
    out.write(data);
    return bytes.toByteArray();
  }

  private Path write(String name, byte[] content, boolean gzip) throws IOException {
    Path file = dir.resolve(name);
    try (OutputStream out =
        gzip ? new GZIPOutputStream(Files.newOutputStream(file)) : Files.newOutputStream(file)) {
      out.write(content);
    }
    return file;
  }

  @Test
  void readsPlainAndGzippedFilesAlike() throws IOException {
    byte[] data = {0, 1, 2, (byte) 255, 4, 5, 6, 7, 8, 9, 10, 11};
    for (boolean gzip : new boolean[] {false, true}) {
      IdxFile f = IdxFile.read(write("images" + gzip, idx(new int[] {2, 2, 3}, data), gzip), 3);
      assertArrayEquals(new int[] {2, 2, 3}, f.shape());
      assertArrayEquals(data, f.data());
    }
  }

  @Test
  void imagesAndLabelsBecomeSparseRowsScaledTo01() throws IOException {
    Path images =
        write("img", idx(new int[] {2, 1, 3}, new byte[] {0, (byte) 255, 51, 0, 0, 0}), true);
    Path labels = write("lab", idx(new int[] {2}, new byte[] {9, 0}), false);
    Dataset d = FashionMnist.examples(images, labels);
    assertArrayEquals(new int[] {9, 0}, d.labels());
    SparseFeatures x = (SparseFeatures) d.features();
    assertEquals(3, x.columns());
    assertArrayEquals(new int[] {0, 2, 2}, x.indptr()); // the all-zero second image stores nothing
    assertArrayEquals(new int[] {1, 2}, x.indices());
    assertArrayEquals(new float[] {1f, 0.2f}, x.values());
  }

  @Test
  void aWrongMagicNamesTheFileAndBothNumbers() throws IOException {
    Path file = write("labels", idx(new int[] {2}, new byte[] {1, 2}), false);
    DataFileException e = assertThrows(DataFileException.class, () -> IdxFile.read(file, 3));
    assertEquals(file, e.file());
    assertTrue(
        e.getMessage().contains("magic number 0x00000801 is not 0x00000803"), e.getMessage());
  }

  @Test
  void aShortFileSaysHowMuchIsMissing() throws IOException {
    byte[] whole = idx(new int[] {2, 2, 2}, new byte[8]);
    Path cut = write("short", Arrays.copyOf(whole, whole.length - 3), false);
    DataFileException e = assertThrows(DataFileException.class, () -> IdxFile.read(cut, 3));
    assertTrue(
        e.getMessage().startsWith(cut + ": the file ends after 5 of the 8 data bytes"),
        e.getMessage());
    Path header = write("header", Arrays.copyOf(whole, 9), false);
    e = assertThrows(DataFileException.class, () -> IdxFile.read(header, 3));
    assertTrue(e.getMessage().contains("ends inside its IDX header"), e.getMessage());
  }

  @Test
  void aTruncatedGzipStreamAndTrailingBytesAreErrors() throws IOException {
    Path whole = write("whole.gz", idx(new int[] {1000}, new byte[1000]), true);
    byte[] gz = Files.readAllBytes(whole);
    Path cut = dir.resolve("cut.gz");
    Files.write(cut, Arrays.copyOf(gz, gz.length - 10));
    DataFileException e = assertThrows(DataFileException.class, () -> IdxFile.read(cut, 1));
    assertEquals(cut, e.file());
    Path trailing = write("trailing", Arrays.copyOf(idx(new int[] {2}, new byte[2]), 11), false);
    e = assertThrows(DataFileException.class, () -> IdxFile.read(trailing, 1));
    assertTrue(e.getMessage().contains("bytes after the 2 its header declares"), e.getMessage());
  }

  @Test
  void labelsBeyondTenAndCountsThatDisagreeAreErrors() throws IOException {
    Path images = write("img", idx(new int[] {2, 1, 1}, new byte[] {1, 2}), false);
    Path tooMany = write("lab3", idx(new int[] {3}, new byte[] {1, 2, 3}), false);
    assertTrue(
        assertThrows(DataFileException.class, () -> FashionMnist.examples(images, tooMany))
            .getMessage()
            .contains("has 3 labels but"));
    Path eleven = write("lab11", idx(new int[] {2}, new byte[] {1, 11}), false);
    assertTrue(
        assertThrows(DataFileException.class, () -> FashionMnist.examples(images, eleven))
            .getMessage()
            .contains("label 1 is 11"));
  }
}
