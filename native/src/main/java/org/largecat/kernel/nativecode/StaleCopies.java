package org.largecat.kernel.nativecode;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The copies of liblargecat in the temporary directory, {@code liblargecat-PID-RANDOM.so}: each
 * lives only while its process loads it, and the process number in the name lets the next start
 * remove a copy whose process was killed before it could, without touching one a live process is
 * still loading.
 */
final class StaleCopies {
  private static final Pattern COPY = Pattern.compile("liblargecat-(?:(\\d+)-)?\\d+\\.so");

  /** A process's start is known to about a clock tick; a second leaves room for that. */
  private static final long START_SLACK_MILLIS = 1000;

  private static final ProcessHandle SELF = ProcessHandle.current();

  private StaleCopies() {}

  /** The start of this process's copies' names. */
  static String prefix() {
    return "liblargecat-" + SELF.pid() + "-";
  }

  /**
   * Deletes the copies in {@code directory} of processes that have exited (or whose number another
   * process took since), and those named before the process number was in the name that are older
   * than this process. What cannot be deleted is left.
   */
  static void remove(Path directory) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "liblargecat-*.so")) {
      for (Path entry : entries) {
        Matcher m = COPY.matcher(entry.getFileName().toString());
        if (m.matches() && stale(entry, m.group(1))) {
          Files.deleteIfExists(entry);
        }
      }
    } catch (IOException e) {
      // Cleaning is a courtesy: what cannot be listed or deleted stays.
    }
  }

  private static boolean stale(Path file, String pid) throws IOException {
    Instant modified = Files.getLastModifiedTime(file).toInstant();
    if (pid == null) {
      return SELF.info().startInstant().map(modified::isBefore).orElse(false);
    }
    long owner = Long.parseLong(pid);
    if (owner == SELF.pid()) {
      return false;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(owner);
    if (process.isEmpty() || !process.get().isAlive()) {
      return true;
    }
    // A live process of that number that started after the copy was written is not its owner.
    return process
        .get()
        .info()
        .startInstant()
        .map(start -> start.isAfter(modified.plusMillis(START_SLACK_MILLIS)))
        .orElse(false);
  }
}
