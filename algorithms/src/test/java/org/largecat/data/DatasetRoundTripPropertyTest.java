package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

/**
 * Read a data file, write it ({@link DatasetWriter}), read it again: the same dataset bit for bit,
 * for files in either format and either index base, with features in any order, explicit zeros
 * (signed too), subnormal and extreme values, values written in any float syntax, extra labels.
 */
class DatasetRoundTripPropertyTest {
  private static final float[] SPECIAL = {
    0f, -0f, Float.MIN_VALUE, -Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, 1f, 1e7f, 0.1f
  };

  @TempDir Path dir;

  /** A file's text, its format and bases: rows, columns and classes from a seed. */
  private record DataFile(TextFormat format, int featureBase, int labelBase, String text) {
    ReadOptions options() {
      return ReadOptions.of(format).withBases(featureBase, labelBase);
    }
  }

  private static final Gen<DataFile> FILES =
      integers()
          .between(1, 12)
          .zip(integers().between(1, 9), longs().all(), DatasetRoundTripPropertyTest::file);

  private static DataFile file(int rows, int columns, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    TextFormat format =
        random.nextBoolean() ? TextFormat.LIBSVM : TextFormat.EXTREME_CLASSIFICATION;
    int featureBase = random.nextInt(2);
    int labelBase = random.nextInt(2);
    int classes = 1 + random.nextInt(6);
    StringBuilder s = new StringBuilder();
    if (format == TextFormat.EXTREME_CLASSIFICATION) {
      s.append(rows).append(' ').append(columns).append(' ').append(classes).append('\n');
    }
    for (int n = 0; n < rows; n++) {
      s.append(random.nextInt(classes) + labelBase);
      if (format == TextFormat.EXTREME_CLASSIFICATION && random.nextInt(4) == 0) {
        s.append(',').append(random.nextInt(classes) + labelBase);
      }
      int[] order = random.ints(0, columns).distinct().limit(random.nextInt(columns + 1)).toArray();
      for (int column : order) {
        s.append(random.nextBoolean() ? " " : "\t").append(column + featureBase).append(':');
        s.append(value(random));
      }
      s.append(format == TextFormat.LIBSVM && random.nextInt(5) == 0 ? " # note\n" : "\n");
    }
    return new DataFile(format, featureBase, labelBase, s.toString());
  }

  private static String value(SplittableRandom random) {
    float v =
        random.nextBoolean()
            ? SPECIAL[random.nextInt(SPECIAL.length)]
            : Float.intBitsToFloat(random.nextInt());
    if (!Float.isFinite(v)) {
      v = (float) random.nextGaussian();
    }
    return switch (random.nextInt(4)) {
      case 0 -> Float.toString(v);
      case 1 -> Double.toString(v);
      case 2 -> String.format(java.util.Locale.ROOT, "%.9e", v);
      default ->
          v == Math.rint(v) && Math.abs(v) < 1e9f ? Long.toString((long) v) : Float.toString(v);
    };
  }

  @Test
  void readWriteReadGivesTheSameDataset() {
    qt().withFixedSeed(22)
        .withExamples(400)
        .forAll(FILES)
        .checkAssert(
            f -> {
              try {
                Path original = dir.resolve("original.txt");
                Path written = dir.resolve("written.txt");
                Files.writeString(original, f.text());
                Dataset first = DatasetReader.read(original, f.options());
                DatasetWriter.write(first, written);
                Dataset second =
                    DatasetReader.read(written, ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION));
                assertSame(first, second, f.text());
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  private static void assertSame(Dataset a, Dataset b, String text) {
    assertEquals(a.rows(), b.rows(), text);
    assertEquals(a.columns(), b.columns(), text);
    assertEquals(a.classes(), b.classes(), text);
    assertArrayEquals(a.labels(), b.labels(), text);
    SparseFeatures x = (SparseFeatures) a.features();
    SparseFeatures y = (SparseFeatures) b.features();
    assertArrayEquals(x.indptr(), y.indptr(), text);
    assertArrayEquals(x.indices(), y.indices(), text);
    int[] xb = new int[x.values().length];
    int[] yb = new int[y.values().length];
    for (int j = 0; j < xb.length; j++) {
      xb[j] = Float.floatToRawIntBits(x.values()[j]);
      yb[j] = Float.floatToRawIntBits(y.values()[j]);
    }
    assertArrayEquals(xb, yb, text);
  }
}
