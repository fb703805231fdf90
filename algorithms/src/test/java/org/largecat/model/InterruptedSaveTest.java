package org.largecat.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A save that never finishes leaves the old model as it was: a child JVM saving a 400 MB model over
 * it is killed with SIGKILL mid-write, or runs out of file size (ulimit -f, as on a full disk).
 */
@EnabledOnOs(OS.LINUX)
class InterruptedSaveTest {
  /** K × D of the child's model: 100 million floats, 400 MB, so the kill lands while it writes. */
  private static final String[] SHAPE = {"10000", "10000"};

  @TempDir Path dir;

  @Test
  void aKilledSaveLeavesTheOldModel() throws Exception {
    Path file = oldModel();
    byte[] before = Files.readAllBytes(file);
    Process child = child(List.of(), file);
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("writing", out.readLine());
      awaitTemporaryFile(file);
      child.destroyForcibly(); // SIGKILL
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    }
    assertNotEquals(0, child.exitValue());
    assertArrayEquals(before, Files.readAllBytes(file));
    assertEquals(7, ModelFile.read(file).weights()[4]);
  }

  @Test
  void aSaveThatRunsOutOfSpaceLeavesTheOldModelAndSaysWhy() throws Exception {
    Path file = oldModel();
    byte[] before = Files.readAllBytes(file);
    Process child =
        child(List.of("bash", "-c", "ulimit -f 1024 && exec \"$0\" \"$@\""), file); // 1 MB
    String output =
        new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
            + new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(60, TimeUnit.SECONDS));
    assertNotEquals(0, child.exitValue(), output);
    assertTrue(
        output.contains(file + ": cannot write (the file is unchanged): File too large"), output);
    assertArrayEquals(before, Files.readAllBytes(file));
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count(), "the temporary file is removed");
    }
  }

  private Path oldModel() throws IOException {
    Path file = dir.resolve("model.bin");
    LinearModel old = LinearModel.zeros(Link.PROBIT, 3, 2);
    old.weights()[4] = 7;
    ModelFile.write(old, file);
    return file;
  }

  private Process child(List<String> wrapper, Path file) throws IOException {
    List<String> command = new ArrayList<>(wrapper);
    command.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx1g",
            "-cp",
            System.getProperty("java.class.path"),
            SaveModelMain.class.getName(),
            file.toString(),
            SHAPE[0],
            SHAPE[1]));
    return new ProcessBuilder(command).start();
  }

  /** Waits until the child's temporary file beside the target has some bytes in it. */
  private void awaitTemporaryFile(Path file) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try (var files = Files.list(dir)) {
        if (files.anyMatch(
            f -> f.getFileName().toString().startsWith("." + file.getFileName()) && size(f) > 0)) {
          return;
        }
      }
      LockSupport.parkNanos(1_000_000);
    }
    throw new AssertionError("the child never started writing");
  }

  private static long size(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      return 0;
    }
  }
}
