package org.largecat.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelFileTest {
  @TempDir Path dir;

  private Path saved() throws IOException {
    LinearModel m = LinearModel.zeros(Link.PROBIT, 3, 4);
    for (int i = 0; i < m.weights().length; i++) {
      m.weights()[i] = (float) Math.sin(i) * 1e-30f;
    }
    m.weights()[5] = -0.0f;
    m.biases()[0] = -Float.MAX_VALUE;
    m.biases()[2] = Double.MIN_VALUE;
    Path f = dir.resolve("m.bin");
    ModelFile.write(m, f);
    return f;
  }

  @Test
  void loadsBackBitForBit() throws IOException {
    Path f = saved();
    LinearModel back = ModelFile.read(f);
    assertEquals(Link.PROBIT, back.link());
    LinearModel again = ModelFile.read(f);
    assertArrayEquals(back.weights(), again.weights());
    assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(back.weights()[5]));
    assertEquals(-Float.MAX_VALUE, back.biases()[0]);
    assertEquals(Double.MIN_VALUE, back.biases()[2]);
  }

  @Test
  void refusesTruncatedCorruptAndForeignFiles() throws IOException {
    byte[] bytes = Files.readAllBytes(saved());
    Path truncated = dir.resolve("truncated.bin");
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 3));
    assertRefused(truncated, "truncated");
    byte[] flipped = bytes.clone();
    flipped[40] ^= 1;
    Path corrupt = dir.resolve("corrupt.bin");
    Files.write(corrupt, flipped);
    assertRefused(corrupt, "checksum mismatch");
    Path foreign = dir.resolve("foreign.bin");
    Files.writeString(foreign, "3 5 4\n0 1:1\n");
    assertRefused(foreign, "not a largecat model file");
    Path longer = dir.resolve("longer.bin");
    Files.write(longer, Arrays.copyOf(bytes, bytes.length + 1));
    assertRefused(longer, "a file of " + bytes.length + " bytes, but it has " + (bytes.length + 1));
  }

  /**
   * A 40-byte file whose header claims K = D = 46,000 is refused from its length, before any
   * allocation.
   */
  @Test
  void refusesAHeaderTheFileCannotHold() throws IOException {
    ByteBuffer header = ByteBuffer.allocate(40);
    header
        .putLong(0x4C4341544D444C31L)
        .putInt(1)
        .putShort((short) 7)
        .put("SOFTMAX".getBytes(StandardCharsets.US_ASCII))
        .putInt(46_000)
        .putInt(46_000);
    Path f = dir.resolve("huge.bin");
    Files.write(f, header.array());
    assertRefused(f, "header gives K = 46000, D = 46000");
  }

  @Test
  void refusesANonFiniteWeightEvenWithAValidChecksum() throws IOException {
    byte[] bytes = Files.readAllBytes(saved());
    int firstWeight = 8 + 4 + 2 + "PROBIT".length() + 4 + 4;
    ByteBuffer.wrap(bytes).putFloat(firstWeight + 4 * 6, Float.NaN); // class 1, feature 2
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length - 4);
    ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
    Path f = dir.resolve("nan.bin");
    Files.write(f, bytes);
    assertRefused(f, "the weight of class 1, feature 2 is NaN");
  }

  @Test
  void aNonFiniteModelIsNotSavedAndTheOldFileStays() throws IOException {
    Path f = saved();
    byte[] before = Files.readAllBytes(f);
    LinearModel diverged = LinearModel.zeros(Link.SOFTMAX, 2, 2);
    diverged.biases()[1] = Double.POSITIVE_INFINITY;
    IOException e = assertThrows(IOException.class, () -> ModelFile.write(diverged, f));
    assertTrue(e.getMessage().contains("the bias of class 1 is Infinity"), e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(f));
  }

  /**
   * Scores are float: a bias beyond float range could never be scored, so it is refused on save
   * and, in a file with a valid checksum, on load, as a weight of ±Inf is.
   */
  @Test
  void aBiasBeyondFloatRangeIsRefusedOnSaveAndOnLoad() throws IOException {
    for (double bias : new double[] {1e308, -1e308, Math.nextUp((double) Float.MAX_VALUE)}) {
      Path f = saved();
      byte[] before = Files.readAllBytes(f);
      LinearModel huge = ModelFile.read(f);
      huge.biases()[1] = bias;
      IOException e = assertThrows(IOException.class, () -> ModelFile.write(huge, f));
      assertTrue(e.getMessage().contains("beyond float range"), e.getMessage());
      assertArrayEquals(before, Files.readAllBytes(f));
      ByteBuffer bytes = ByteBuffer.wrap(before);
      int biases = before.length - 4 - 8 * huge.classes();
      bytes.putDouble(biases + 8, bias);
      CRC32 crc = new CRC32();
      crc.update(before, 0, before.length - 4);
      bytes.putInt(before.length - 4, (int) crc.getValue());
      Path onDisk = dir.resolve("huge.bin");
      Files.write(onDisk, before);
      assertRefused(onDisk, "the bias of class 1 is " + bias + ", beyond float range");
    }
  }

  @Test
  void aDirectoryOrAMissingFileIsNamedWithTheReason() {
    IOException missing =
        assertThrows(IOException.class, () -> ModelFile.read(dir.resolve("absent.bin")));
    assertEquals(
        dir.resolve("absent.bin") + ": cannot load model: it does not exist", missing.getMessage());
    IOException directory = assertThrows(IOException.class, () -> ModelFile.read(dir));
    assertTrue(
        directory.getMessage().startsWith(dir + ": cannot load model: "), directory.getMessage());
  }

  private FactorizedModel factorized() {
    FactorizedModel m = FactorizedModel.zeros(Link.SOFTMAX, 3, 5, 2);
    for (int i = 0; i < m.inputs().length; i++) {
      m.inputs()[i] = (float) Math.cos(i);
    }
    for (int i = 0; i < m.outputs().length; i++) {
      m.outputs()[i] = -i * 1e-3f;
    }
    m.biases()[1] = 0.25;
    return m;
  }

  @Test
  void aFactorizedModelLoadsBackBitForBitAndIsNotReadAsLinear() throws IOException {
    FactorizedModel m = factorized();
    Path f = dir.resolve("f.bin");
    ModelFile.write(m, f);
    FactorizedModel back = (FactorizedModel) ModelFile.readScoreModel(f);
    assertEquals(2, back.rank());
    assertArrayEquals(m.inputs(), back.inputs());
    assertArrayEquals(m.outputs(), back.outputs());
    assertArrayEquals(m.biases(), back.biases());
    assertRefused(f, "a factorized model of rank 2; only a linear model can be used here");
    // A linear file reads as a ScoreModel too.
    assertEquals(LinearModel.class, ModelFile.readScoreModel(saved()).getClass());
  }

  @Test
  void refusesACorruptOrNonFiniteFactorizedFile() throws IOException {
    Path f = dir.resolve("f.bin");
    ModelFile.write(factorized(), f);
    byte[] bytes = Files.readAllBytes(f);
    byte[] flipped = bytes.clone();
    flipped[50] ^= 1;
    Path corrupt = dir.resolve("corrupt.bin");
    Files.write(corrupt, flipped);
    assertScoreModelRefused(corrupt, "checksum mismatch");
    Path truncated = dir.resolve("truncated.bin");
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 8));
    assertScoreModelRefused(truncated, "header gives K = 3, D = 5, r = 2, a file of");
    // The first output weight follows the header and the 5 x 2 input table.
    int firstOutput = 8 + 4 + 2 + "SOFTMAX".length() + 4 + 4 + 4 + 4 * 10;
    ByteBuffer.wrap(bytes).putFloat(firstOutput + 4 * 3, Float.POSITIVE_INFINITY);
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length - 4);
    ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
    Path infinite = dir.resolve("infinite.bin");
    Files.write(infinite, bytes);
    assertScoreModelRefused(infinite, "the embedding of class 1, element 1 is Infinity");
  }

  private static void assertScoreModelRefused(Path f, String reason) {
    IOException e = assertThrows(IOException.class, () -> ModelFile.readScoreModel(f));
    assertTrue(
        e.getMessage().startsWith(f + ": cannot load model: ") && e.getMessage().contains(reason),
        e.getMessage());
  }

  private static void assertRefused(Path f, String reason) {
    IOException e = assertThrows(IOException.class, () -> ModelFile.read(f));
    assertTrue(
        e.getMessage().startsWith(f + ": cannot load model: ") && e.getMessage().contains(reason),
        e.getMessage());
  }
}
