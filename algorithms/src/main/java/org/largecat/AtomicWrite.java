package org.largecat;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a file whole or not at all: the content goes to a temporary file beside the target, is
 * forced to disk and renamed over the target, so a run that fails, fills the disk or is killed
 * leaves the old file as it was. A killed run leaves at worst a stray {@code .NAME.*.tmp} beside
 * it, which the next save to the same target removes ({@link TemporarySiblings}).
 */
public final class AtomicWrite {
  private AtomicWrite() {}

  /** What writes the content. */
  @FunctionalInterface
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /**
   * Writes {@code content} to {@code target}, replacing it only once the whole content is on disk.
   * A target that {@link #checkWritable} refuses is refused before the content is made; a failure
   * after that (a full disk) is a {@link WriteFailedException}.
   */
  public static void write(Path target, Content content) throws IOException {
    checkWritable(target);
    TemporarySiblings.removeStale(target);
    Path temporary = TemporarySiblings.create(target);
    boolean renamed = false;
    try {
      try (FileChannel channel =
              FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
          OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16)) {
        content.writeTo(out);
        out.flush();
        channel.force(true);
      }
      try {
        Files.move(
            temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
      }
      renamed = true;
    } catch (IOException e) {
      throw new WriteFailedException(
          IoErrors.explain(target, "cannot write (the file is unchanged)", e).getMessage(), e);
    } finally {
      // Whatever failed, an out-of-memory error included, the partial file goes.
      if (!renamed) {
        Files.deleteIfExists(temporary);
      }
      TemporarySiblings.done(temporary);
    }
  }

  /** Writes {@code text} as UTF-8 to {@code target}, as {@link #write} does. */
  public static void writeString(Path target, String text) throws IOException {
    write(target, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Refuses, before any work is done, a target that could not be written: its directory is missing
   * or not writable, or the target is a directory, a read-only file or a special file (a FIFO, a
   * device, a socket), which the rename would replace with a regular file.
   */
  public static void checkWritable(Path target) throws IOException {
    Path directory = target.toAbsolutePath().getParent();
    if (!Files.isDirectory(directory)) {
      throw new IOException(
          target
              + ": cannot write: the directory "
              + directory
              + " does not exist; create it first");
    }
    if (!Files.isWritable(directory)) {
      throw new IOException(
          target + ": cannot write: the directory " + directory + " is not writable");
    }
    if (Files.isDirectory(target)) {
      throw new IOException(target + ": cannot write: it is a directory; give a file name");
    }
    if (Files.exists(target) && !Files.isRegularFile(target)) {
      throw new IOException(
          target
              + ": cannot write: it is not a regular file (a FIFO, a device or a socket), which"
              + " would be replaced; give the path of a regular file");
    }
    if (Files.exists(target) && !Files.isWritable(target)) {
      throw new IOException(target + ": cannot write: the file is read-only");
    }
  }

  /**
   * Creates {@code directory} and its parents when missing, and refuses one that cannot be written
   * into; a failure names the directory and why.
   */
  public static void createDirectories(Path directory) throws IOException {
    try {
      Files.createDirectories(directory);
    } catch (FileAlreadyExistsException e) {
      throw new IOException(
          directory + ": cannot create the directory: " + e.getFile() + " is a file", e);
    } catch (IOException e) {
      throw IoErrors.explain(directory, "cannot create the directory", e);
    }
    if (!Files.isWritable(directory)) {
      throw new IOException(directory + ": cannot write into the directory: permission denied");
    }
  }
}
