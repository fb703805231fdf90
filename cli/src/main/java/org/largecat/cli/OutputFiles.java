package org.largecat.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.largecat.AtomicWrite;

/**
 * The files a command will write, checked before it starts its work: an output that could not be
 * written (a missing directory, a read-only or special file) or that is the same file as one of the
 * command's inputs or another of its outputs is refused at once, not found out after the training
 * or the simulation has overwritten what it read.
 */
final class OutputFiles {
  /** A file and what named it, e.g. the option {@code --train}. */
  private record Named(String name, Path file) {
    @Override
    public String toString() {
      return name + " " + file;
    }
  }

  private final List<Named> inputs = new ArrayList<>();
  private final List<Named> outputs = new ArrayList<>();

  /** The command reads {@code file} (null: not given), named by {@code name}. */
  OutputFiles reads(String name, Path file) {
    if (file != null) {
      inputs.add(new Named(name, file));
    }
    return this;
  }

  /**
   * The command reads {@code path} (null: not given), a Spark data path: a local file, or a URI
   * that only its file system can compare (not checked).
   */
  OutputFiles readsSparkPath(String name, String path) {
    if (path == null) {
      return this;
    }
    URI uri;
    try {
      uri = URI.create(path);
    } catch (IllegalArgumentException e) {
      return reads(name, Path.of(path));
    }
    if (uri.getScheme() == null) {
      return reads(name, Path.of(path));
    }
    return "file".equals(uri.getScheme()) ? reads(name, Path.of(uri)) : this;
  }

  /** The command writes {@code file} (null: not asked for), named by {@code name}. */
  OutputFiles writes(String name, Path file) {
    if (file != null) {
      outputs.add(new Named(name, file));
    }
    return this;
  }

  /**
   * Refuses an output that is the same file as an input or an earlier output (compared as real
   * paths, or by file key where both exist, so links are seen through), or that could not be
   * written.
   */
  void check() throws IOException {
    for (int i = 0; i < outputs.size(); i++) {
      Named output = outputs.get(i);
      for (Named input : inputs) {
        refuseSame(output, input);
      }
      for (Named earlier : outputs.subList(0, i)) {
        refuseSame(output, earlier);
      }
    }
    for (Named output : outputs) {
      AtomicWrite.checkWritable(output.file());
    }
  }

  private static void refuseSame(Named output, Named other) throws IOException {
    if (sameFile(output.file(), other.file())) {
      throw new IOException(
          output + " is the same file as " + other + "; give " + output.name() + " another path");
    }
  }

  private static boolean sameFile(Path a, Path b) throws IOException {
    boolean aExists = Files.exists(a);
    boolean bExists = Files.exists(b);
    if (aExists && bExists) {
      return Files.isSameFile(a, b);
    }
    return !aExists && !bExists && where(a).equals(where(b));
  }

  /** Where a file not yet created would be: its directory's real path and its name. */
  private static Path where(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    Path directory = absolute.getParent();
    if (directory == null || absolute.getFileName() == null) {
      return absolute;
    }
    try {
      return directory.toRealPath().resolve(absolute.getFileName());
    } catch (IOException e) {
      return absolute;
    }
  }
}
