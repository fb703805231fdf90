package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The contract both text readers are fuzzed against: a file of any bytes, read with any options,
 * gives a consistent dataset or a {@link DataFileException} (an {@link IOException} for text that
 * is not UTF-8) whose message starts with the file's name; nothing else is thrown. A file read
 * whole and read in blocks of the same shape gives the same examples.
 */
final class DataFileFuzzing {
  private static final Path FILE;

  static {
    try {
      FILE = Files.createTempFile("largecat-fuzz", ".txt");
      FILE.toFile().deleteOnExit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private DataFileFuzzing() {}

  static void check(TextFormat format, FuzzedDataProvider input) throws IOException {
    ReadOptions options =
        ReadOptions.of(format).withBases(input.consumeInt(0, 1), input.consumeInt(0, 1));
    if (input.consumeBoolean()) {
      options = options.withShape(input.consumeInt(0, 64), input.consumeInt(1, 64));
    }
    int blockRows = input.consumeInt(1, 8);
    Files.write(FILE, input.consumeRemainingAsBytes());
    Dataset whole;
    try {
      whole = DatasetReader.read(FILE, options);
    } catch (IOException e) {
      assertTrue(e.getMessage().startsWith(FILE + ":"), () -> "the message names the file: " + e);
      return;
    }
    assertTrue(whole.rows() > 0);
    assertEquals(whole.rows(), whole.features().rows());
    Dataset.class.cast(whole); // the record's constructor checked labels and CSR arrays
    try (DatasetBlocks blocks =
        DatasetBlocks.open(FILE, options.withShape(whole.columns(), whole.classes()), blockRows)) {
      int row = 0;
      for (Dataset b = blocks.next(); b != null; b = blocks.next()) {
        SparseFeatures x = (SparseFeatures) b.features();
        SparseFeatures all = (SparseFeatures) whole.features();
        for (int n = 0; n < b.rows(); n++, row++) {
          assertEquals(whole.labels()[row], b.labels()[n]);
          assertEquals(all.rowLength(row), x.rowLength(n));
          for (int j = 0; j < x.rowLength(n); j++) {
            assertEquals(all.indices()[all.indptr()[row] + j], x.indices()[x.indptr()[n] + j]);
            assertEquals(
                Float.floatToRawIntBits(all.values()[all.indptr()[row] + j]),
                Float.floatToRawIntBits(x.values()[x.indptr()[n] + j]));
          }
        }
      }
      assertEquals(whole.rows(), row);
      assertNull(blocks.next());
    }
  }
}
