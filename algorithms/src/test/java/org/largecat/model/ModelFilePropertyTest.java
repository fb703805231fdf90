package org.largecat.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Properties of the model file: writing then reading is the identity bit for bit, for every finite
 * weight and every bias within float range (signed zeros, subnormals, ±MAX); a non-finite one is
 * refused on write, and a file that holds one (with a valid checksum) is refused on read.
 */
class ModelFilePropertyTest {
  private static final long SEED = 22;

  @TempDir Path dir;

  private static final Gen<Float> FLOATS =
      Generate.frequency(
          List.of(
              Pair.of(
                  1,
                  Generate.pick(
                      List.of(
                          0f,
                          -0f,
                          Float.MIN_VALUE,
                          -Float.MIN_VALUE,
                          Float.intBitsToFloat(0x007fffff),
                          Float.MIN_NORMAL,
                          Float.MAX_VALUE,
                          -Float.MAX_VALUE,
                          1f))),
              Pair.of(3, integers().all().map(Float::intBitsToFloat).assuming(Float::isFinite))));

  private static final Gen<Double> DOUBLES =
      Generate.frequency(
          List.of(
              Pair.of(
                  1,
                  Generate.pick(
                      List.of(
                          0.0,
                          -0.0,
                          Double.MIN_VALUE,
                          -Double.MIN_NORMAL,
                          Double.longBitsToDouble(0x000fffffffffffffL),
                          (double) Float.MAX_VALUE,
                          (double) -Float.MAX_VALUE))),
              Pair.of(
                  3,
                  longs()
                      .all()
                      .map(Double::longBitsToDouble)
                      .assuming(Double::isFinite)
                      // beyond float range: scaled by 2^-1024, exactly, into [2^-896, 1)
                      .map(b -> Math.abs(b) <= Float.MAX_VALUE ? b : b * 0x1p-1024))));

  private static final Gen<LinearModel> MODELS =
      Generate.enumValues(Link.class)
          .zip(integers().between(1, 5), integers().between(0, 6), Shape::new)
          .flatMap(
              shape -> {
                Link link = shape.link();
                int k = shape.classes();
                int d = shape.columns();
                return lists()
                    .of(FLOATS)
                    .ofSize(k * d)
                    .zip(
                        lists().of(DOUBLES).ofSize(k),
                        (w, b) -> new LinearModel(link, k, d, floats(w), doubles(b)));
              });

  private record Shape(Link link, int classes, int columns) {}

  @Test
  void writeThenReadIsTheIdentity() {
    qt().withFixedSeed(SEED)
        .withExamples(500)
        .forAll(MODELS)
        .checkAssert(
            model -> {
              LinearModel back = roundTrip(model);
              assertEquals(model.link(), back.link());
              assertEquals(model.classes(), back.classes());
              assertEquals(model.columns(), back.columns());
              assertArrayEquals(bits(model.weights()), bits(back.weights()));
              assertArrayEquals(bits(model.biases()), bits(back.biases()));
            });
  }

  @Test
  void aNonFiniteWeightOrBiasIsRefusedOnWriteAndOnRead() {
    Gen<Integer> positions = integers().between(0, 1 << 20);
    Gen<Integer> kinds = integers().between(0, 2); // NaN, +Inf, -Inf
    qt().withFixedSeed(SEED)
        .withExamples(200)
        .forAll(MODELS.assuming(m -> m.weights().length > 0), positions, kinds)
        .checkAssert(
            (model, position, kind) -> {
              float bad =
                  new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}[kind];
              int at = position % (model.weights().length + model.classes());
              Path file = dir.resolve("m.bin");
              try {
                ModelFile.write(model, file);
                byte[] bytes = Files.readAllBytes(file);
                LinearModel broken = copy(model);
                int header = 8 + 4 + 2 + model.link().name().length() + 4 + 4;
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                if (at < model.weights().length) {
                  broken.weights()[at] = bad;
                  buffer.putFloat(header + 4 * at, bad);
                } else {
                  int k = at - model.weights().length;
                  broken.biases()[k] = bad;
                  buffer.putDouble(header + 4 * model.weights().length + 8 * k, bad);
                }
                IOException onWrite =
                    assertThrows(IOException.class, () -> ModelFile.write(broken, file));
                assertTrue(onWrite.getMessage().startsWith(file + ": not saved: "));
                assertArrayEquals(
                    bits(model.weights()), bits(ModelFile.read(file).weights()), "file kept");
                CRC32 crc = new CRC32();
                crc.update(bytes, 0, bytes.length - 4);
                buffer.putInt(bytes.length - 4, (int) crc.getValue());
                Files.write(file, bytes);
                IOException onRead = assertThrows(IOException.class, () -> ModelFile.read(file));
                assertTrue(
                    onRead.getMessage().startsWith(file + ": cannot load model: the "),
                    onRead.getMessage());
                assertTrue(onRead.getMessage().contains(" is " + bad), onRead.getMessage());
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  private LinearModel roundTrip(LinearModel model) {
    Path file = dir.resolve("m.bin");
    try {
      ModelFile.write(model, file);
      return ModelFile.read(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static LinearModel copy(LinearModel m) {
    return new LinearModel(
        m.link(), m.classes(), m.columns(), m.weights().clone(), m.biases().clone());
  }

  private static float[] floats(List<Float> list) {
    float[] a = new float[list.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = list.get(i);
    }
    return a;
  }

  private static double[] doubles(List<Double> list) {
    return list.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static int[] bits(float[] a) {
    int[] b = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      b[i] = Float.floatToRawIntBits(a[i]);
    }
    return b;
  }

  private static long[] bits(double[] a) {
    return Arrays.stream(a).mapToLong(Double::doubleToRawLongBits).toArray();
  }
}
