package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Allocations bounded by the input: a file's header is checked against its length or its rows, and
 * a count option against the heap, before the work; each refusal is one line with exit 2 that names
 * what to change.
 */
class BoundedInputsTest {
  @TempDir Path dir;

  private static void oneLine(CommandRun r, String command) {
    assertEquals(2, r.status(), r.err());
    assertFalse(r.err().contains("\tat "), r.err());
    assertEquals(1, r.err().strip().split("\n").length, r.err());
    assertTrue(r.err().startsWith("largecat " + command + ": "), r.err());
  }

  @Test
  void aDataHeaderFarBeyondItsRowsIsRefused() throws Exception {
    StringBuilder text = new StringBuilder("20 15000 15000\n");
    for (int i = 0; i < 20; i++) {
      text.append(i % 4).append(' ').append(i % 5).append(":1\n");
    }
    Path data = Files.writeString(dir.resolve("d.txt"), text);
    Path model = dir.resolve("m.bin");
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            data.toString(),
            "--method",
            "ove",
            "--epochs",
            "1",
            "--model",
            model.toString());
    oneLine(r, "train");
    assertTrue(r.err().contains("the header declares D = 15000 features"), r.err());
    assertFalse(Files.exists(model));
  }

  @Test
  void caviSamplesBeyondTheHeapAreRefusedBeforeTheFit() throws Exception {
    Path data = dir.resolve("cb.txt");
    CommandRun synth =
        CommandRun.of(
            "data",
            "synth",
            "cb",
            "--classes",
            "3",
            "--covariates",
            "2",
            "--rows",
            "30",
            "--sigma-high",
            "1",
            "--out",
            data.toString());
    assertEquals(0, synth.status(), synth.err());
    CommandRun r =
        CommandRun.of(
            "cavi", "--train", data.toString(), "--link", "probit", "--samples", "2147483647");
    oneLine(r, "cavi");
    assertTrue(
        r.err().contains("--samples 2147483647: S draws of the (M + 1) × K weights"), r.err());
    assertTrue(r.err().contains("give a smaller --samples"), r.err());
  }

  @Test
  void aHugeSynthModelBehindASmallHeaderIsRefusedUnread() throws Exception {
    Path answers = dir.resolve("answers.txt");
    Path model = dir.resolve("s.bin");
    CommandRun.smallChoiceData(answers, 20, 2);
    CommandRun fit =
        CommandRun.of(
            "synth",
            "fit",
            "--data",
            answers.toString(),
            "--latent",
            "2",
            "--model",
            model.toString());
    assertEquals(0, fit.status(), fit.err());
    long length = 3L << 30;
    try (RandomAccessFile f = new RandomAccessFile(model.toFile(), "rw")) {
      f.setLength(length); // sparse
    }
    CommandRun r =
        CommandRun.of(
            "synth",
            "generate",
            "--model",
            model.toString(),
            "--users",
            "3",
            "--out",
            dir.resolve("out.txt").toString());
    oneLine(r, "synth generate");
    assertTrue(r.err().contains(model + ": trailing bytes: " + length + " bytes"), r.err());
  }
}
