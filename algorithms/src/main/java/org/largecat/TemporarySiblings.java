package org.largecat;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The temporary files {@link AtomicWrite} puts beside a target, {@code .NAME.PID.RANDOM.tmp}: named
 * with the process that writes them, so that the next save to the target can tell a file left by a
 * killed run from one a live run is still writing; deleted when the JVM shuts down (a normal exit,
 * Ctrl-C, SIGTERM) while still being written.
 */
final class TemporarySiblings {
  /** A process's start is known to about a clock tick; a second leaves room for that. */
  private static final long START_SLACK_MILLIS = 1000;

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
   * Deletes the temporary files beside {@code target} that no live process can be writing: those of
   * a process that has exited (or whose number another process took since), and those named before
   * the process number was in the name that are older than this process. Files of this process are
   * left to the thread writing them. What cannot be deleted is left.
   */
  static void removeStale(Path target) {
    Path directory = target.toAbsolutePath().getParent();
    Pattern sibling =
        Pattern.compile(
            Pattern.quote("." + target.getFileName() + ".") + "(?:(\\d+)\\.)?[0-9a-f]+\\.tmp");
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        Matcher m = sibling.matcher(entry.getFileName().toString());
        if (m.matches() && stale(entry, m.group(1))) {
          Files.deleteIfExists(entry);
        }
      }
    } catch (IOException e) {
      // Cleaning is a courtesy: a directory that cannot be listed or a file that cannot be deleted
      // does not stop the save.
    }
  }

  private static boolean stale(Path file, String pid) throws IOException {
    Instant modified = Files.getLastModifiedTime(file).toInstant();
    if (pid == null) {
      return SELF.info().startInstant().map(modified::isBefore).orElse(false);
    }
    long owner;
    try {
      owner = Long.parseLong(pid);
    } catch (NumberFormatException e) {
      return false;
    }
    if (owner == SELF.pid()) {
      return false;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(owner);
    if (process.isEmpty() || !process.get().isAlive()) {
      return true;
    }
    // A live process of that number that started after the file was last written is not its
    // writer: the number was given again.
    return process
        .get()
        .info()
        .startInstant()
        .map(start -> start.isAfter(modified.plusMillis(START_SLACK_MILLIS)))
        .orElse(false);
  }
}
