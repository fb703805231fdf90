package org.largecat.data;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.largecat.AtomicWrite;

/**
 * Writes a {@link Dataset} in the repository's text format, the Extreme Classification one ({@link
 * TextFormat#EXTREME_CLASSIFICATION}, 0-based): header {@code N D K}, then {@code label f:v f:v
 * ...} with values written round-trip exact, signed zeros too: a sparse row keeps every stored pair
 * (explicit zeros included), a dense row leaves out its +0 values, so that reading the file gives
 * back the same features bit for bit.
 */
public final class DatasetWriter {
  private DatasetWriter() {}

  /** Writes {@code data} to {@code file}, replacing it once the whole set is written. */
  public static void write(Dataset data, Path file) throws IOException {
    AtomicWrite.write(
        file,
        raw ->
            writeTo(data, new BufferedWriter(new OutputStreamWriter(raw, StandardCharsets.UTF_8))));
  }

  private static void writeTo(Dataset data, BufferedWriter out) throws IOException {
    Features x = data.features();
    out.write(data.rows() + " " + data.columns() + " " + data.classes());
    out.newLine();
    StringBuilder line = new StringBuilder();
    for (int n = 0; n < data.rows(); n++) {
      line.setLength(0);
      line.append(data.labels()[n]);
      switch (x) {
        case SparseFeatures s -> {
          for (int j = s.indptr()[n]; j < s.indptr()[n + 1]; j++) {
            appendPair(line, s.indices()[j], s.values()[j]);
          }
        }
        case DenseFeatures d -> {
          for (int j = 0; j < d.columns(); j++) {
            float value = d.values()[n * d.columns() + j];
            if (Float.floatToRawIntBits(value) != 0) {
              appendPair(line, j, value);
            }
          }
        }
      }
      out.append(line);
      out.newLine();
    }
    out.flush();
  }

  private static void appendPair(StringBuilder line, int column, float value) {
    line.append(' ').append(column).append(':');
    if (value == Math.rint(value)
        && Math.abs(value) < 1e7f
        && Float.floatToRawIntBits(value) != Float.floatToRawIntBits(-0f)) {
      line.append((int) value);
    } else {
      line.append(value);
    }
  }
}
