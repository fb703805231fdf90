package org.largecat.prepare;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.largecat.data.DataFileException;

/**
 * An IDX file of unsigned bytes, the format of the MNIST and Fashion-MNIST files (LeCun's
 * description: magic 0x00 0x00 0x08 d, then d big-endian int32 sizes, then the bytes in row-major
 * order), plain or gzipped (recognised by its first two bytes). A wrong magic, a bad size, a short
 * file or trailing bytes is a {@link DataFileException} naming the file and the reason.
 *
 * @param shape the d sizes, outermost first
 * @param data the values, row-major
 */
record IdxFile(int[] shape, byte[] data) {
  private static final int UNSIGNED_BYTE = 0x08;

  /** Reads {@code file}, which must hold unsigned bytes in {@code dimensions} dimensions. */
  static IdxFile read(Path file, int dimensions) throws IOException {
    String part = "header"; // where a truncated file ends, for the message
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
      raw.mark(2);
      boolean gzipped = raw.read() == 0x1f && raw.read() == 0x8b;
      raw.reset();
      DataInputStream in = new DataInputStream(gzipped ? new GZIPInputStream(raw, 1 << 16) : raw);
      int magic = in.readInt();
      int expected = UNSIGNED_BYTE << 8 | dimensions;
      if (magic != expected) {
        throw new DataFileException(
            file,
            0,
            String.format(
                "magic number 0x%08x is not 0x%08x (an IDX file of unsigned bytes in %d dimensions)",
                magic, expected, dimensions));
      }
      int[] shape = new int[dimensions];
      long size = 1;
      for (int i = 0; i < dimensions; i++) {
        shape[i] = in.readInt();
        size *= shape[i];
        if (shape[i] < 0 || size > Integer.MAX_VALUE - 8) {
          throw new DataFileException(
              file, 0, "dimension " + i + " has the invalid size " + shape[i]);
        }
      }
      byte[] data = new byte[(int) size];
      part = "data (" + data.length + " bytes declared)";
      int read = in.readNBytes(data, 0, data.length);
      if (read < data.length) {
        throw new DataFileException(
            file,
            0,
            "the file ends after "
                + read
                + " of the "
                + data.length
                + " data bytes its header declares");
      }
      if (in.read() >= 0) {
        throw new DataFileException(
            file, 0, "the file has bytes after the " + data.length + " its header declares");
      }
      return new IdxFile(shape, data);
    } catch (EOFException e) {
      throw new DataFileException(file, 0, "the file ends inside its IDX " + part);
    } catch (ZipException e) {
      throw new DataFileException(file, 0, "the gzip stream is corrupt: " + e.getMessage());
    }
  }
}
