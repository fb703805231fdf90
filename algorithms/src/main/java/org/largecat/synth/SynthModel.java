package org.largecat.synth;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.largecat.AtomicWrite;
import org.largecat.MemoryBudget;
import org.largecat.kernel.Kernels;
import org.largecat.kernel.MatrixOps;

/**
 * The latent-embedding model (1) of the synthetic-categorical-data paper with η linear: z_u ~ N(μ,
 * Σ) in d dimensions, P(X_ui = k | z_u) = softmax_k(z_u'β_ik). Holds μ (d), Σ (d x d row-major) and
 * the embeddings B (row (i, k) at {@code ((i * K) + k) * d}); draws synthetic users from it; saves
 * and loads it as a versioned binary file with a CRC32 at the end.
 */
public final class SynthModel {
  private static final byte[] MAGIC = {'L', 'C', 'S', 'Y', 'N', 'T', 'H', 0};
  private static final int VERSION = 1;
  private static final int HEADER_BYTES = MAGIC.length + 4 * 4;

  private final int items;
  private final int choiceCount;
  private final int latent;
  private final double[] mean;
  private final double[] covariance;
  private final double[] embeddings;

  /**
   * Checks the dimensions, that every entry is finite and that Σ (read from its lower triangle) is
   * positive definite.
   */
  public SynthModel(
      int items,
      int choiceCount,
      int latent,
      double[] mean,
      double[] covariance,
      double[] embeddings) {
    if (items < 1 || choiceCount < 2 || latent < 1) {
      throw new IllegalArgumentException(
          "SynthModel: need items >= 1, choices >= 2, latent >= 1; got items="
              + items
              + " choices="
              + choiceCount
              + " latent="
              + latent);
    }
    checkFinite("mean", mean, latent);
    checkFinite("covariance", covariance, (long) latent * latent);
    checkFinite("embeddings", embeddings, (long) items * choiceCount * latent);
    this.items = items;
    this.choiceCount = choiceCount;
    this.latent = latent;
    this.mean = mean;
    this.covariance = covariance;
    this.embeddings = embeddings;
    choleskyOfCovariance();
  }

  public int items() {
    return items;
  }

  public int choiceCount() {
    return choiceCount;
  }

  public int latent() {
    return latent;
  }

  /** μ; the caller must not modify it. */
  public double[] mean() {
    return mean;
  }

  /** Σ, d x d row-major; the caller must not modify it. */
  public double[] covariance() {
    return covariance;
  }

  /** B, (I * K) x d row-major; the caller must not modify it. */
  public double[] embeddings() {
    return embeddings;
  }

  /**
   * A model to simulate from: μ_s ~ N(0, 0.5²), Σ_st = ρ^|s-t| with ρ = 0.6 (correlated, unit
   * variances), β_iks ~ N(0, 1).
   */
  public static SynthModel randomTruth(int items, int choiceCount, int latent, long seed) {
    MemoryBudget.arrayLength("Sigma, d × d", Double.BYTES, latent, latent);
    MemoryBudget.arrayLength(
        "the embeddings, items × K × d", Double.BYTES, items, choiceCount, latent);
    SplittableRandom random = new SplittableRandom(seed);
    double[] mean = new double[latent];
    for (int s = 0; s < latent; s++) {
      mean[s] = 0.5 * random.nextGaussian();
    }
    double[] covariance = new double[latent * latent];
    for (int s = 0; s < latent; s++) {
      for (int t = 0; t < latent; t++) {
        covariance[s * latent + t] = Math.pow(0.6, Math.abs(s - t));
      }
    }
    double[] embeddings = new double[items * choiceCount * latent];
    for (int j = 0; j < embeddings.length; j++) {
      embeddings[j] = random.nextGaussian();
    }
    return new SynthModel(items, choiceCount, latent, mean, covariance, embeddings);
  }

  /** Draws {@code users} users from model (1) with the given seed (z_u = μ + L ξ, Σ = L L'). */
  public ChoiceData sample(int users, long seed) {
    if (users < 1) {
      throw new IllegalArgumentException("SynthModel.sample: users must be >= 1, got " + users);
    }
    int[] choices =
        new int
            [MemoryBudget.arrayLength("the answers, users × items", Integer.BYTES, users, items)];
    double[] factor = choleskyOfCovariance();
    SplittableRandom random = new SplittableRandom(seed);
    double[] noise = new double[latent];
    double[] z = new double[latent];
    double[] utility = new double[choiceCount];
    for (int u = 0; u < users; u++) {
      for (int s = 0; s < latent; s++) {
        noise[s] = random.nextGaussian();
      }
      for (int s = 0; s < latent; s++) {
        double value = mean[s];
        for (int t = 0; t <= s; t++) {
          value += factor[s * latent + t] * noise[t];
        }
        z[s] = value;
      }
      for (int i = 0; i < items; i++) {
        double largest = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < choiceCount; k++) {
          int row = (i * choiceCount + k) * latent;
          double dot = 0;
          for (int s = 0; s < latent; s++) {
            dot += embeddings[row + s] * z[s];
          }
          utility[k] = dot;
          largest = Math.max(largest, dot);
        }
        double total = 0;
        for (int k = 0; k < choiceCount; k++) {
          utility[k] = Math.exp(utility[k] - largest);
          total += utility[k];
        }
        double target = random.nextDouble() * total;
        int chosen = choiceCount - 1;
        double cumulative = 0;
        for (int k = 0; k < choiceCount; k++) {
          cumulative += utility[k];
          if (target < cumulative) {
            chosen = k;
            break;
          }
        }
        choices[u * items + i] = chosen;
      }
    }
    return new ChoiceData(users, items, choiceCount, choices);
  }

  /** Writes magic, version, I, K, d, μ, Σ, B (big-endian), then the CRC32 of all of it. */
  public void save(Path file) throws IOException {
    ByteArrayOutputStream bytes =
        new ByteArrayOutputStream(
            HEADER_BYTES + 8 * (latent + latent * latent + embeddings.length) + 8);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write(MAGIC);
      out.writeInt(VERSION);
      out.writeInt(items);
      out.writeInt(choiceCount);
      out.writeInt(latent);
      for (double[] block : new double[][] {mean, covariance, embeddings}) {
        for (double value : block) {
          out.writeDouble(value);
        }
      }
      CRC32 crc = new CRC32();
      crc.update(bytes.toByteArray());
      out.writeLong(crc.getValue());
    }
    AtomicWrite.write(file, bytes::writeTo);
  }

  /**
   * Reads a file {@link #save} wrote.
   *
   * @throws IllegalArgumentException naming the file if it is not a model file, has another
   *     version, is truncated or longer than its dimensions say, or fails its checksum
   */
  public static SynthModel load(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long length = channel.size();
      if (length < HEADER_BYTES + 8) {
        throw corrupt(file, "truncated: " + length + " bytes, shorter than the header");
      }
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      readFully(channel, header);
      header.flip();
      // The length the header's dimensions give is checked against the file's before the body is
      // read, so that a huge file behind a small header is refused without reading it.
      long expected = expectedLength(file, header);
      if (length != expected) {
        throw corrupt(
            file,
            (length < expected ? "truncated" : "trailing bytes")
                + ": "
                + length
                + " bytes, the dimensions need "
                + expected);
      }
      MemoryBudget.require(length, file + ": the synth model");
      ByteBuffer whole = ByteBuffer.allocate((int) length);
      channel.position(0);
      readFully(channel, whole);
      return fromBytes(file, whole.array());
    }
  }

  /** The file length the header's dimensions call for, after checking its magic and version. */
  private static long expectedLength(Path file, ByteBuffer buffer) {
    byte[] magic = new byte[MAGIC.length];
    buffer.get(magic);
    if (!java.util.Arrays.equals(magic, MAGIC)) {
      throw corrupt(file, "not a largecat synth model (bad magic)");
    }
    int version = buffer.getInt();
    if (version != VERSION) {
      throw corrupt(
          file, "model file version " + version + ", this build reads version " + VERSION);
    }
    int items = buffer.getInt();
    int choiceCount = buffer.getInt();
    int latent = buffer.getInt();
    if (items < 1
        || choiceCount < 2
        || latent < 1
        || (long) items * choiceCount * latent > Integer.MAX_VALUE / 8) {
      throw corrupt(
          file,
          "impossible dimensions items=" + items + " choices=" + choiceCount + " latent=" + latent);
    }
    long doubles = latent + (long) latent * latent + (long) items * choiceCount * latent;
    return HEADER_BYTES + 8 * doubles + 8;
  }

  private static void readFully(FileChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        throw new EOFException("the file ended while being read");
      }
    }
  }

  /** The model in {@code bytes}, a whole file of the length its header calls for. */
  private static SynthModel fromBytes(Path file, byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes, HEADER_BYTES - 12, bytes.length - HEADER_BYTES + 12);
    int items = buffer.getInt();
    int choiceCount = buffer.getInt();
    int latent = buffer.getInt();
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length - 8);
    long stored = ByteBuffer.wrap(bytes, bytes.length - 8, 8).getLong();
    if (stored != crc.getValue()) {
      throw corrupt(file, "checksum mismatch (the file is corrupt)");
    }
    double[] mean = readDoubles(buffer, latent);
    double[] covariance = readDoubles(buffer, latent * latent);
    double[] embeddings = readDoubles(buffer, items * choiceCount * latent);
    try {
      return new SynthModel(items, choiceCount, latent, mean, covariance, embeddings);
    } catch (IllegalArgumentException e) {
      throw corrupt(file, e.getMessage());
    }
  }

  private double[] choleskyOfCovariance() {
    MatrixOps matrixOps = Kernels.get().matrixOps();
    double[] factor = covariance.clone();
    try {
      matrixOps.choleskyFactor(latent, factor, 0, latent);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "SynthModel: covariance is not positive definite (" + e.getMessage() + ")");
    }
    return factor;
  }

  private static double[] readDoubles(ByteBuffer buffer, int count) {
    double[] values = new double[count];
    for (int j = 0; j < count; j++) {
      values[j] = buffer.getDouble();
    }
    return values;
  }

  private static void checkFinite(String name, double[] values, long length) {
    if (values == null || values.length != length) {
      throw new IllegalArgumentException(
          "SynthModel: "
              + name
              + " must have "
              + length
              + " entries, got "
              + (values == null ? "null" : values.length));
    }
    for (int j = 0; j < values.length; j++) {
      if (!Double.isFinite(values[j])) {
        throw new IllegalArgumentException(
            "SynthModel: " + name + "[" + j + "] = " + values[j] + " is not finite");
      }
    }
  }

  private static IllegalArgumentException corrupt(Path file, String reason) {
    return new IllegalArgumentException(file + ": " + reason);
  }
}
