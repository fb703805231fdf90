package org.largecat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The temporary files beside a saved file: which a save removes and which it must leave. */
class TemporarySiblingsTest {
  @TempDir Path dir;

  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** The number of a process that has exited. */
  private static long exitedPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    return p.pid();
  }

  private Path touch(String name, Instant modified) throws IOException {
    Path p = Files.writeString(dir.resolve(name), "partial");
    Files.setLastModifiedTime(p, FileTime.from(modified));
    return p;
  }

  @Test
  void aSaveRemovesWhatKilledRunsLeftAndNothingALiveRunWrites() throws Exception {
    Process live = new ProcessBuilder("sleep", "60").start();
    try {
      Instant now = Instant.now();
      long self = ProcessHandle.current().pid();
      touch(".m.bin." + exitedPid() + ".1f2e.tmp", now);
      touch(".m.bin.0123abcd.tmp", Instant.parse("2001-01-01T00:00:00Z"));
      Path ours = touch(".m.bin." + self + ".aa.tmp", now);
      Path theirs = touch(".m.bin." + live.pid() + ".bb.tmp", now.plusSeconds(5));
      Path reused =
          touch(".m.bin." + live.pid() + ".cc.tmp", Instant.parse("2001-01-01T00:00:00Z"));
      Path otherTarget = touch(".n.bin." + exitedPid() + ".dd.tmp", now);
      Path recentLegacy = touch(".m.bin.77aa.tmp", now.plusSeconds(60));

      AtomicWrite.writeString(dir.resolve("m.bin"), "model");

      assertEquals(
          Stream.of(ours, theirs, otherTarget, recentLegacy, dir.resolve("m.bin"))
              .map(p -> p.getFileName().toString())
              .sorted()
              .toList(),
          names());
      assertFalse(Files.exists(reused), "a file older than the live process of its number");
    } finally {
      live.destroyForcibly().waitFor();
    }
  }

  @Test
  void anErrorWhileWritingLeavesNoTemporaryFile() throws IOException {
    Path f = dir.resolve("m.bin");
    AtomicWrite.writeString(f, "old");
    assertThrows(
        OutOfMemoryError.class,
        () ->
            AtomicWrite.write(
                f,
                out -> {
                  out.write(new byte[100]);
                  throw new OutOfMemoryError("Java heap space");
                }));
    assertEquals(List.of("m.bin"), names());
    assertEquals("old", Files.readString(f));
  }

  @Test
  void theTemporaryFileNamesItsProcess() {
    Path t = TemporarySiblings.create(dir.resolve("m.bin"));
    TemporarySiblings.done(t);
    assertTrue(
        t.getFileName()
            .toString()
            .matches("\\.m\\.bin\\." + ProcessHandle.current().pid() + "\\.[0-9a-f]+\\.tmp"),
        t.toString());
  }
}
