package org.largecat.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;

/**
 * Fuzzes {@link ModelFile#read}: any bytes give a model or an {@link IOException} whose message
 * starts with the file's name; a file that loads is written back byte for byte. Half the inputs get
 * their CRC-32 appended, so that the fuzzer gets past the checksum to the header and the weights.
 */
class ModelFileFuzzTest {
  private static final Path FILE;
  private static final Path COPY;

  static {
    try {
      FILE = Files.createTempFile("largecat-fuzz", ".bin");
      COPY = Files.createTempFile("largecat-fuzz", ".bin");
      FILE.toFile().deleteOnExit();
      COPY.toFile().deleteOnExit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest
  void loadsOrNamesTheFile(FuzzedDataProvider input) throws IOException {
    boolean withChecksum = input.consumeBoolean();
    byte[] body = input.consumeRemainingAsBytes();
    byte[] file = body;
    if (withChecksum) {
      CRC32 crc = new CRC32();
      crc.update(body);
      file = ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
    }
    Files.write(FILE, file);
    LinearModel model;
    try {
      model = ModelFile.read(FILE);
    } catch (IOException e) {
      assertTrue(e.getMessage().startsWith(FILE + ": "), () -> "the message names the file: " + e);
      return;
    }
    ModelFile.write(model, COPY);
    assertArrayEquals(file, Files.readAllBytes(COPY), "written back byte for byte");
  }
}
