package org.largecat.model;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import org.largecat.AtomicWrite;
import org.largecat.IoErrors;

/**
 * The binary model file: magic {@code LCATMDL1}, format version, link, K, D, the weights (float)
 * and biases (double) big-endian, then the CRC-32 of everything before it. Loading gives back the
 * saved model bit for bit; a file with another magic or version, a header whose shape disagrees
 * with the file's length, a non-finite weight or bias, a short file, trailing bytes or a checksum
 * mismatch is refused with an {@link IOException} that names the file and the reason. Saving
 * replaces the file only once the whole model is on disk ({@link AtomicWrite}).
 */
public final class ModelFile {
  private static final long MAGIC = 0x4C4341544D444C31L; // "LCATMDL1"
  private static final int VERSION = 1;

  private ModelFile() {}

  /**
   * Writes {@code model} to {@code file}, replacing it once the whole model is written; a model
   * with a non-finite weight or bias is refused, as {@link #read} would refuse the file.
   */
  public static void write(LinearModel model, Path file) throws IOException {
    String nonFinite = nonFinite(model.weights(), model.biases(), model.columns());
    if (nonFinite != null) {
      throw new IOException(file + ": not saved: " + nonFinite + " (the run diverged)");
    }
    AtomicWrite.write(file, raw -> writeTo(model, raw));
  }

  private static void writeTo(LinearModel model, OutputStream raw) throws IOException {
    CRC32 crc = new CRC32();
    DataOutputStream out = new DataOutputStream(new CheckedOutputStream(raw, crc));
    out.writeLong(MAGIC);
    out.writeInt(VERSION);
    out.writeUTF(model.link().name());
    out.writeInt(model.classes());
    out.writeInt(model.columns());
    for (float w : model.weights()) {
      out.writeFloat(w);
    }
    for (double b : model.biases()) {
      out.writeDouble(b);
    }
    out.flush();
    new DataOutputStream(raw).writeInt((int) crc.getValue());
  }

  /** The first non-finite weight or bias, named by class and feature, or null if all are finite. */
  private static String nonFinite(float[] weights, double[] biases, int columns) {
    for (int i = 0; i < weights.length; i++) {
      if (!Float.isFinite(weights[i])) {
        return "the weight of class "
            + i / columns
            + ", feature "
            + i % columns
            + " is "
            + weights[i];
      }
    }
    for (int k = 0; k < biases.length; k++) {
      if (!Double.isFinite(biases[k])) {
        return "the bias of class " + k + " is " + biases[k];
      }
    }
    return null;
  }

  /** Reads a model written by {@link #write}. */
  public static LinearModel read(Path file) throws IOException {
    CRC32 crc = new CRC32();
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        DataInputStream in = new DataInputStream(new CheckedInputStream(raw, crc))) {
      if (in.readLong() != MAGIC) {
        throw refused(file, "not a largecat model file (wrong magic number)");
      }
      int version = in.readInt();
      if (version != VERSION) {
        throw refused(
            file, "model format version " + version + "; this largecat reads version " + VERSION);
      }
      Link link;
      try {
        link = Link.valueOf(in.readUTF());
      } catch (IllegalArgumentException e) {
        throw refused(file, "unknown link in header");
      }
      int classes = in.readInt();
      int columns = in.readInt();
      if (classes < 1 || columns < 0) {
        throw refused(
            file, "header gives K = " + classes + ", D = " + columns + ", not a valid shape");
      }
      // 8 + 4 + the link's UTF bytes + 4 + 4 read so far; then the weights, the biases and the
      // checksum.
      long length = 20 + 2 + link.name().length() + 4L * classes * columns + 8L * classes + 4;
      if (Files.size(file) != length) {
        throw refused(
            file,
            "header gives K = "
                + classes
                + ", D = "
                + columns
                + ", a file of "
                + length
                + " bytes, but it has "
                + Files.size(file)
                + " (truncated, or not a model of that shape)");
      }
      float[] weights;
      try {
        weights = new float[LinearModel.weightCount(classes, columns)];
      } catch (IllegalArgumentException e) {
        throw refused(file, e.getMessage());
      }
      for (int i = 0; i < weights.length; i++) {
        weights[i] = in.readFloat();
      }
      double[] biases = new double[classes];
      for (int k = 0; k < classes; k++) {
        biases[k] = in.readDouble();
      }
      int expected = (int) crc.getValue();
      int stored = new DataInputStream(raw).readInt();
      if (stored != expected) {
        throw refused(file, "checksum mismatch (the file is corrupt)");
      }
      String nonFinite = nonFinite(weights, biases, columns);
      if (nonFinite != null) {
        throw refused(file, nonFinite + " (a model saved from a diverged run); retrain it");
      }
      return new LinearModel(link, classes, columns, weights, biases);
    } catch (EOFException e) {
      throw refused(file, "the file is truncated");
    } catch (IOException e) {
      throw IoErrors.explain(file, "cannot load model", e);
    }
  }

  private static IOException refused(Path file, String reason) {
    return new IOException(file + ": cannot load model: " + reason);
  }
}
