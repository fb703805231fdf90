package org.largecat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.largecat.files.ProcessOwnedFiles;

/**
 * The temporary files {@link AtomicWrite} puts beside a target, {@code .NAME.PID.RANDOM.tmp}: named
 * with the process that writes them, so that the next save to the target can tell a file left by a
 * killed run from one a live run is still writing; deleted when the JVM shuts down (a normal exit,
 * Ctrl-C, SIGTERM) while still being written.
 */
final class TemporarySiblings {
  private static final ProcessHandle SELF = ProcessHandle.current();

  /** The files this JVM is writing now. */
  private static final Set<Path> WRITING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  for (Path p : WRITING) {
                    try {
                      Files.deleteIfExists(p);
                    } catch (IOException e) {
                      // The JVM is going; a file left here is removed by the next save.
                    }
                  }
                },
                "largecat temporary files"));
  }

  private TemporarySiblings() {}

  /** A new temporary file's name beside {@code target}, registered as being written. */
  static Path create(Path target) {
    Path temporary =
        target
            .toAbsolutePath()
            .getParent()
            .resolve(
                "."
                    + target.getFileName()
                    + "."
                    + SELF.pid()
                    + "."
                    + Long.toHexString(ThreadLocalRandom.current().nextLong())
                    + ".tmp");
    WRITING.add(temporary);
    return temporary;
  }

  /** {@code temporary} is no longer being written: renamed or deleted. */
  static void done(Path temporary) {
    WRITING.remove(temporary);
  }

  /**
   * Deletes the temporary files beside {@code target} that no live process can be writing ({@link
   * ProcessOwnedFiles#removeStale}); this process's are left to the thread writing them.
   */
  static void removeStale(Path target) {
    ProcessOwnedFiles.removeStale(
        target.toAbsolutePath().getParent(),
        "*",
        Pattern.compile(
            Pattern.quote("." + target.getFileName() + ".") + "(?:(\\d+)\\.)?[0-9a-f]+\\.tmp"));
  }
}
