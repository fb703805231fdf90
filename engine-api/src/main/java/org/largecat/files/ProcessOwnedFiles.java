package org.largecat.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Files named with the number of the process that made them (a model being saved, a copy of the
 * native library being loaded): the number lets a later process remove those a killed process left
 * without touching one a live process still uses.
 */
public final class ProcessOwnedFiles {
  /** A process's start is known to about a clock tick; a second leaves room for that. */
  private static final long START_SLACK_MILLIS = 1000;

  private static final ProcessHandle SELF = ProcessHandle.current();

  private ProcessOwnedFiles() {}

  /**
   * Deletes the files of {@code directory} matching {@code glob} whose whole name matches {@code
   * name}, group 1 the owner's process number, that no live process can own: those of a process
   * that has exited (or whose number another process took since), and those named before the number
   * was in the name (group 1 absent) that are older than this process. This process's files are
   * left. What cannot be listed or deleted stays: cleaning is a courtesy.
   */
  public static void removeStale(Path directory, String glob, Pattern name) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, glob)) {
      for (Path entry : entries) {
        Matcher m = name.matcher(entry.getFileName().toString());
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
    // owner: the number was given again.
    return process
        .get()
        .info()
        .startInstant()
        .map(start -> start.isAfter(modified.plusMillis(START_SLACK_MILLIS)))
        .orElse(false);
  }
}
