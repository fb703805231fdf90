package org.largecat.kernel.nativecode;

import java.nio.file.Path;
import java.util.regex.Pattern;
import org.largecat.files.ProcessOwnedFiles;

/**
 * The copies of liblargecat in the temporary directory, {@code liblargecat-PID-RANDOM.so}: each
 * lives only while its process loads it, and the process number in the name lets the next start
 * remove a copy whose process was killed before it could, without touching one a live process is
 * still loading.
 */
final class StaleCopies {
  private static final Pattern COPY = Pattern.compile("liblargecat-(?:(\\d+)-)?\\d+\\.so");

  private static final ProcessHandle SELF = ProcessHandle.current();

  private StaleCopies() {}

  /** The start of this process's copies' names. */
  static String prefix() {
    return "liblargecat-" + SELF.pid() + "-";
  }

  /**
   * Deletes the copies in {@code directory} that no live process can be loading ({@link
   * ProcessOwnedFiles#removeStale}).
   */
  static void remove(Path directory) {
    ProcessOwnedFiles.removeStale(directory, "liblargecat-*.so", COPY);
  }
}
