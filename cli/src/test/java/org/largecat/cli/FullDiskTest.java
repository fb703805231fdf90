package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills while a command writes is a failed run (exit 1), as the README promises, and
 * leaves the old file and no temporary one. The full disk is a real one: a 64 KiB tmpfs, which only
 * root can mount.
 */
class FullDiskTest {
  @TempDir Path dir;

  @Test
  void aFullDiskIsAFailedRunThatKeepsTheOldFile() throws Exception {
    Path disk = Files.createDirectory(dir.resolve("disk"));
    Process mount =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.toString())
            .redirectErrorStream(true)
            .start();
    mount.getInputStream().readAllBytes();
    assumeTrue(mount.waitFor() == 0, "mounting a small tmpfs needs root");
    try {
      Path old = Files.writeString(disk.resolve("set.txt"), "old\n");
      CommandRun r =
          CommandRun.of("data", "synth", "softmax", "--rows", "20000", "--out", old.toString());
      assertEquals(1, r.status(), r.err());
      String[] lines = r.err().strip().split("\n");
      assertEquals(1, lines.length, r.err());
      assertTrue(lines[0].contains(old.toString()) && lines[0].contains("No space"), r.err());
      assertEquals("old\n", Files.readString(old));
      try (var left = Files.list(disk)) {
        assertEquals(List.of(old), left.toList());
      }
    } finally {
      new ProcessBuilder("umount", disk.toString()).inheritIO().start().waitFor();
    }
  }
}
