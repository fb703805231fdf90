package org.largecat.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.largecat.AtomicWrite;

/**
 * The files a command will write, checked before it starts its work, so that a missing directory or
 * a read-only file is an error at once and not after the training or the simulation.
 */
final class OutputFiles {
  private OutputFiles() {}

  /** Refuses any of {@code files} (null: not asked for) that could not be written. */
  static void check(Path... files) throws IOException {
    for (Path file : files) {
      if (file != null) {
        AtomicWrite.checkWritable(file);
      }
    }
  }
}
