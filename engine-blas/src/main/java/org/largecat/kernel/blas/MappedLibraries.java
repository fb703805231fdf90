package org.largecat.kernel.blas;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The shared libraries this process has mapped, read from /proc/self/maps: the one sure way to tell
 * which native BLAS a JNI binding actually loaded, whatever symlinks and alternatives lie between.
 */
final class MappedLibraries {
  private static final Path MAPS = Path.of("/proc/self/maps");

  private MappedLibraries() {}

  /**
   * The mapped files whose file name passes the filter, in mapping order, each once; empty where
   * there is no /proc (not Linux).
   */
  static List<Path> matching(Predicate<String> fileName) {
    try (Stream<String> lines = Files.lines(MAPS)) {
      return lines
          .map(MappedLibraries::mappedFile)
          .filter(path -> path != null && fileName.test(path.getFileName().toString()))
          .distinct()
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  /**
   * The file of one maps line ("address perms offset dev inode path"), or null for anonymous
   * memory.
   */
  private static Path mappedFile(String line) {
    int slash = line.indexOf('/');
    return slash < 0 ? null : Path.of(line.substring(slash).strip());
  }
}
