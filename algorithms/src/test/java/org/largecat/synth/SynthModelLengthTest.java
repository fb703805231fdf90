package org.largecat.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synth model file whose length disagrees with its header is refused from the header and the
 * file's length alone: a large file behind a small header is not read.
 */
class SynthModelLengthTest {
  @TempDir Path dir;

  private static SynthModel small() {
    return new SynthModel(
        2, 3, 2, new double[] {0, 0}, new double[] {1, 0, 0, 1}, new double[2 * 3 * 2]);
  }

  /** The bytes this thread has allocated so far (HotSpot's count, independent of the reader). */
  private static long allocated() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  @Test
  void aHugeFileBehindASmallHeaderIsRefusedWithoutReadingIt() throws Exception {
    Path file = dir.resolve("huge.bin");
    small().save(file);
    long length = 400L << 20;
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(length); // sparse: no disk is used
    }
    long before = allocated();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SynthModel.load(file));
    long used = allocated() - before;
    assertTrue(e.getMessage().startsWith(file + ": trailing bytes: " + length), e.getMessage());
    assertTrue(used < 1 << 20, "the reader allocated " + used + " bytes");
  }

  @Test
  void aModelOfTheRightLengthStillLoads() throws Exception {
    Path file = dir.resolve("m.bin");
    SynthModel model = small();
    model.save(file);
    SynthModel back = SynthModel.load(file);
    assertEquals(model.latent(), back.latent());
    assertArrayEquals(model.embeddings(), back.embeddings());
  }
}
