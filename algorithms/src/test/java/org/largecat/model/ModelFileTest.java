package org.largecat.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelFileTest {
  @TempDir
  Path dir;

  private Path saved() throws IOException {
    LinearModel m = LinearModel.zeros(Link.PROBIT, 3, 4);
    for (int i = 0; i < m.weights().length; i++) {
      m.weights()[i] = (float) Math.sin(i) * 1e-30f;
    }
    m.weights()[5] = -0.0f;
    m.biases()[0] = -1e300;
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
    assertEquals(-1e300, back.biases()[0]);
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
    assertRefused(longer, "unexpected bytes");
  }

  private static void assertRefused(Path f, String reason) {
    IOException e = assertThrows(IOException.class, () -> ModelFile.read(f));
    assertTrue(e.getMessage().startsWith(f + ": cannot load model: ") && e.getMessage().contains(reason), e.getMessage());
  }
}
