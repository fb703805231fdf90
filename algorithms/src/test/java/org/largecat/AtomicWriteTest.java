package org.largecat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicWriteTest {
  @TempDir Path dir;

  @Test
  void replacesTheFileWhole() throws IOException {
    Path f = dir.resolve("out.txt");
    AtomicWrite.writeString(f, "old");
    AtomicWrite.writeString(f, "new content");
    assertEquals("new content", Files.readString(f));
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count(), "no temporary file is left");
    }
  }

  @Test
  void aFailureHalfWayLeavesTheOldFileAndNoTemporary() throws IOException {
    Path f = dir.resolve("out.txt");
    AtomicWrite.writeString(f, "old");
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                AtomicWrite.write(
                    f,
                    out -> {
                      out.write("half of the new".getBytes());
                      throw new IOException("No space left on device");
                    }));
    assertEquals(
        f + ": cannot write (the file is unchanged): No space left on device", e.getMessage());
    assertEquals("old", Files.readString(f));
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count());
    }
  }

  @Test
  void refusesAMissingDirectoryAndADirectoryBeforeWriting() {
    Path nowhere = dir.resolve("missing").resolve("out.txt");
    IOException missing = assertThrows(IOException.class, () -> AtomicWrite.checkWritable(nowhere));
    assertTrue(
        missing.getMessage().contains("does not exist; create it first"), missing.getMessage());
    IOException directory =
        assertThrows(IOException.class, () -> AtomicWrite.writeString(dir, "x"));
    assertTrue(directory.getMessage().contains("it is a directory"), directory.getMessage());
  }
}
