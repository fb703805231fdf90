package org.largecat.kernel.nativecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.kernel.BackendUnavailableException;

/**
 * The copies of liblargecat in the temporary directory: the loaded one is gone once it is mapped,
 * and a start removes those killed processes left, never one a live process may be loading.
 */
class StaleCopiesTest {
  @TempDir Path dir;

  private static final Instant LONG_AGO = Instant.parse("2001-01-01T00:00:00Z");

  private Path copy(String name, Instant modified) throws IOException {
    Path p = Files.writeString(dir.resolve(name), "ELF");
    Files.setLastModifiedTime(p, FileTime.from(modified));
    return p;
  }

  private List<String> names(Path directory, String glob) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> directory.getFileSystem().getPathMatcher("glob:" + glob).matches(Path.of(n)))
          .sorted()
          .toList();
    }
  }

  @Test
  void copiesOfExitedProcessesGoAndThoseOfLiveOnesStay() throws Exception {
    Process exited = new ProcessBuilder("true").start();
    exited.waitFor();
    Process live = new ProcessBuilder("sleep", "60").start();
    try {
      Instant now = Instant.now();
      copy("liblargecat-" + exited.pid() + "-123.so", now);
      copy("liblargecat-" + live.pid() + "-456.so", LONG_AGO);
      copy("liblargecat-8812345.so", LONG_AGO);
      copy("liblargecat-" + live.pid() + "-789.so", now.plusSeconds(5));
      copy(StaleCopies.prefix() + "1.so", now);
      copy("liblargecat-77.so", now.plusSeconds(60));
      copy("libother-1-2.so", LONG_AGO);

      StaleCopies.remove(dir);

      assertEquals(
          Stream.of(
                  "liblargecat-" + live.pid() + "-789.so",
                  StaleCopies.prefix() + "1.so",
                  "liblargecat-77.so",
                  "libother-1-2.so")
              .sorted()
              .toList(),
          names(dir, "*"));
    } finally {
      live.destroyForcibly().waitFor();
    }
  }

  @Test
  void theLoadedLibraryLeavesNoCopy() throws IOException {
    try {
      NativeLibrary.require();
    } catch (BackendUnavailableException e) {
      assumeTrue(false, "the native backend cannot run here: " + e.getMessage());
    }
    assertEquals(
        List.of(),
        names(Path.of(System.getProperty("java.io.tmpdir")), StaleCopies.prefix() + "*.so"));
  }
}
