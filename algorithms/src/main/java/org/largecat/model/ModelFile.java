package org.largecat.model;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
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
 * The binary model file: magic {@code LCATMDL1}, format version, link, K, D, then for a {@link
 * LinearModel} (version 1) the weights (float) and biases (double), for a {@link FactorizedModel}
 * (version 2) the rank r, the input table V, the output table U (float) and the biases, all
 * big-endian, then the CRC-32 of everything before it. Loading gives back the saved model bit for
 * bit; a file with another magic or version, a header whose shape disagrees with the file's length,
 * a non-finite weight, a bias beyond float range (scores are computed and kept in float, so such a
 * bias could never be scored; a weight is a float already), a short file, trailing bytes or a
 * checksum mismatch is refused with an {@link IOException} that names the file and the reason.
 * Saving replaces the file only once the whole model is on disk ({@link AtomicWrite}). The stream
 * forms write and read the same bytes with the same refusals; a stream has no length to compare
 * with its header, so it is read to its end and a short or longer stream is refused after the read
 * instead of before it.
 */
public final class ModelFile {
  private static final long MAGIC = 0x4C4341544D444C31L; // "LCATMDL1"
  private static final int LINEAR = 1;
  private static final int FACTORIZED = 2;

  private ModelFile() {}

  /**
   * Writes {@code model} to {@code file}, replacing it once the whole model is written; a model
   * with a non-finite weight or a bias beyond float range is refused, as {@link #read} would refuse
   * the file.
   */
  public static void write(ScoreModel model, Path file) throws IOException {
    String nonFinite = nonFinite(model);
    if (nonFinite != null) {
      throw new IOException(file + ": not saved: " + nonFinite + " (the run diverged)");
    }
    AtomicWrite.write(file, raw -> writeTo(model, raw));
  }

  /**
   * Writes {@code model} to {@code out} in the file's format and flushes it; the stream is left
   * open. A model with a non-finite weight or a bias beyond float range is refused before a byte is
   * written.
   */
  public static void write(ScoreModel model, OutputStream out) throws IOException {
    String nonFinite = nonFinite(model);
    if (nonFinite != null) {
      throw new IOException("model not written: " + nonFinite + " (the run diverged)");
    }
    BufferedOutputStream buffered = new BufferedOutputStream(out, 1 << 16);
    writeTo(model, buffered);
    buffered.flush();
  }

  private static void writeTo(ScoreModel model, OutputStream raw) throws IOException {
    CRC32 crc = new CRC32();
    DataOutputStream out = new DataOutputStream(new CheckedOutputStream(raw, crc));
    out.writeLong(MAGIC);
    out.writeInt(model instanceof FactorizedModel ? FACTORIZED : LINEAR);
    out.writeUTF(model.link().name());
    out.writeInt(model.classes());
    out.writeInt(model.columns());
    switch (model) {
      case LinearModel linear -> writeFloats(out, linear.weights());
      case FactorizedModel factorized -> {
        out.writeInt(factorized.rank());
        writeFloats(out, factorized.inputs());
        writeFloats(out, factorized.outputs());
      }
    }
    for (double b : model.biases()) {
      out.writeDouble(b);
    }
    out.flush();
    new DataOutputStream(raw).writeInt((int) crc.getValue());
  }

  private static void writeFloats(DataOutputStream out, float[] values) throws IOException {
    for (float v : values) {
      out.writeFloat(v);
    }
  }

  private static float[] readFloats(DataInputStream in, int count) throws IOException {
    float[] values = new float[count];
    for (int i = 0; i < count; i++) {
      values[i] = in.readFloat();
    }
    return values;
  }

  /**
   * The first non-finite weight or bias beyond float range of {@code model}, named, or null if
   * there is none.
   */
  private static String nonFinite(ScoreModel model) {
    String weight =
        switch (model) {
          case LinearModel linear ->
              nonFinite(linear.weights(), linear.columns(), "the weight of class ", ", feature ");
          case FactorizedModel f -> {
            String input =
                nonFinite(f.inputs(), f.rank(), "the embedding of feature ", ", element ");
            yield input != null
                ? input
                : nonFinite(f.outputs(), f.rank(), "the embedding of class ", ", element ");
          }
        };
    return weight != null ? weight : nonFinite(model.biases());
  }

  /** The first non-finite entry of a row-major table, named by row and column, or null. */
  private static String nonFinite(float[] table, int width, String row, String column) {
    for (int i = 0; i < table.length; i++) {
      if (!Float.isFinite(table[i])) {
        return row + i / width + column + i % width + " is " + table[i];
      }
    }
    return null;
  }

  private static String nonFinite(double[] biases) {
    for (int k = 0; k < biases.length; k++) {
      if (!Double.isFinite(biases[k])) {
        return "the bias of class " + k + " is " + biases[k];
      }
      if (Math.abs(biases[k]) > Float.MAX_VALUE) {
        return "the bias of class " + k + " is " + biases[k] + ", beyond float range (±3.4e38)";
      }
    }
    return null;
  }

  /**
   * Reads a linear model written by {@link #write}; a factorized model's file is refused (read it
   * with {@link #readScoreModel}).
   */
  public static LinearModel read(Path file) throws IOException {
    return switch (readScoreModel(file)) {
      case LinearModel linear -> linear;
      case FactorizedModel f ->
          throw refused(
              file,
              "a factorized model of rank " + f.rank() + "; only a linear model can be used here");
    };
  }

  /** Reads a model of either kind written by {@link #write}. */
  public static ScoreModel readScoreModel(Path file) throws IOException {
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      return read(raw, file.toString(), Files.size(file));
    } catch (IOException e) {
      throw IoErrors.explain(file, "cannot load model", e);
    }
  }

  /**
   * Reads a model of either kind written by {@link #write(ScoreModel, OutputStream)} (or a model
   * file's bytes) from {@code in}, to the stream's end, which it leaves open; {@code name} names
   * the stream in the refusals, as a file's path does.
   */
  public static ScoreModel readScoreModel(InputStream in, String name) throws IOException {
    return read(new BufferedInputStream(in, 1 << 16), name, -1);
  }

  /**
   * The model on {@code raw}, which holds {@code size} bytes (-1: unknown, read to the end to find
   * trailing bytes).
   */
  private static ScoreModel read(InputStream raw, String name, long size) throws IOException {
    CRC32 crc = new CRC32();
    DataInputStream in = new DataInputStream(new CheckedInputStream(raw, crc));
    try {
      if (in.readLong() != MAGIC) {
        throw refused(name, "not a largecat model file (wrong magic number)");
      }
      int version = in.readInt();
      if (version != LINEAR && version != FACTORIZED) {
        throw refused(
            name,
            "model format version "
                + version
                + "; this largecat reads versions "
                + LINEAR
                + " (linear) and "
                + FACTORIZED
                + " (factorized)");
      }
      Link link;
      try {
        link = Link.valueOf(in.readUTF());
      } catch (IllegalArgumentException e) {
        throw refused(name, "unknown link in header");
      }
      int classes = in.readInt();
      int columns = in.readInt();
      int rank = version == FACTORIZED ? in.readInt() : 0;
      String shape =
          "K = " + classes + ", D = " + columns + (version == FACTORIZED ? ", r = " + rank : "");
      if (classes < 1 || columns < 0 || (version == FACTORIZED && rank < 1)) {
        throw refused(name, "header gives " + shape + ", not a valid shape");
      }
      // 8 + 4 + the link's UTF bytes + 4 + 4 (+ 4 for r) read so far; then the weights, the biases
      // and the checksum.
      long weights =
          version == FACTORIZED ? 4L * rank * ((long) classes + columns) : 4L * classes * columns;
      long length =
          20
              + 2
              + link.name().length()
              + (version == FACTORIZED ? 4 : 0)
              + weights
              + 8L * classes
              + 4;
      if (size >= 0 && size != length) {
        throw refused(
            name,
            "header gives "
                + shape
                + ", a file of "
                + length
                + " bytes, but it has "
                + size
                + " (truncated, or not a model of that shape)");
      }
      ScoreModel model;
      try {
        if (version == FACTORIZED) {
          int[] lengths = FactorizedModel.tableLengths(classes, columns, rank);
          float[] inputs = readFloats(in, lengths[0]);
          float[] outputs = readFloats(in, lengths[1]);
          model =
              new FactorizedModel(
                  link, classes, columns, rank, inputs, outputs, readBiases(in, classes));
        } else {
          float[] w = readFloats(in, LinearModel.weightCount(classes, columns));
          model = new LinearModel(link, classes, columns, w, readBiases(in, classes));
        }
      } catch (IllegalArgumentException e) {
        throw refused(name, e.getMessage());
      }
      int expected = (int) crc.getValue();
      int stored = new DataInputStream(raw).readInt();
      if (stored != expected) {
        throw refused(name, "checksum mismatch (the file is corrupt)");
      }
      if (size < 0 && raw.read() != -1) {
        throw refused(
            name,
            "trailing bytes after a model of "
                + shape
                + " (the stream holds more than one model file)");
      }
      String nonFinite = nonFinite(model);
      if (nonFinite != null) {
        throw refused(name, nonFinite + " (a model saved from a diverged run); retrain it");
      }
      return model;
    } catch (EOFException e) {
      throw refused(name, "the file is truncated");
    }
  }

  private static double[] readBiases(DataInputStream in, int classes) throws IOException {
    double[] biases = new double[classes];
    for (int k = 0; k < classes; k++) {
      biases[k] = in.readDouble();
    }
    return biases;
  }

  private static IOException refused(Object name, String reason) {
    return new IOException(name + ": cannot load model: " + reason);
  }
}
