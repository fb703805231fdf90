package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No failed run replaces a model, and no model whose scores overflow float is saved, loaded or
 * scored: each refusal is one line that names the model file, and the old model stays byte for
 * byte.
 */
class ModelSafetyTest {
  @TempDir Path dir;

  private Path train;
  private Path model;
  private byte[] oldModel;

  /** A training set (K = 6, D = 4) and a model trained on it, the "old" model of each case. */
  @BeforeEach
  void trainOnce() throws Exception {
    train = dir.resolve("train.txt");
    CommandRun.smallTrainingSet(train);
    model = dir.resolve("m.bin");
    CommandRun t =
        CommandRun.of(
            "train",
            "--train",
            train.toString(),
            "--method",
            "ar-softmax",
            "--epochs",
            "1",
            "--model",
            model.toString());
    assertEquals(0, t.status(), t.err());
    oldModel = Files.readAllBytes(model);
  }

  /** The last line of standard error, the only one that starts with the command. */
  private static String error(CommandRun r, String command) {
    assertFalse(r.err().contains("\tat "), r.err());
    String[] lines = r.err().strip().split("\n");
    String last = lines[lines.length - 1];
    assertTrue(last.startsWith("largecat " + command + ": "), r.err());
    return last;
  }

  private void oldModelKept() throws IOException {
    assertArrayEquals(oldModel, Files.readAllBytes(model), "the old model was replaced");
  }

  /** A data file in the Extreme Classification format: {@code rows[i]} = "label f:v ...". */
  private Path data(String name, int columns, int classes, String... rows) throws IOException {
    StringBuilder text = new StringBuilder();
    text.append(rows.length).append(' ').append(columns).append(' ').append(classes).append('\n');
    for (String row : rows) {
      text.append(row).append('\n');
    }
    return Files.writeString(dir.resolve(name), text);
  }

  /**
   * A softmax model file written byte by byte as the format says, with a valid checksum, so that it
   * can hold what a save would refuse.
   */
  private Path modelFile(String name, int classes, int columns, float[] weights, double[] biases)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeLong(0x4C4341544D444C31L);
    out.writeInt(1);
    out.writeUTF("SOFTMAX");
    out.writeInt(classes);
    out.writeInt(columns);
    for (float w : weights) {
      out.writeFloat(w);
    }
    for (double b : biases) {
      out.writeDouble(b);
    }
    CRC32 crc = new CRC32();
    crc.update(bytes.toByteArray());
    out.writeInt((int) crc.getValue());
    return Files.write(dir.resolve(name), bytes.toByteArray());
  }

  @Test
  void everyTestClassUnseenIsRefusedBeforeTrainingAndKeepsTheOldModel() throws Exception {
    // K = 8 classes, of which training uses 0 to 5 and the test set only 6 and 7.
    String[] rows = new String[40];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = (i % 6) + " " + (i % 4) + ":1";
    }
    Path seen = data("seen.txt", 4, 8, rows);
    Path unseen = data("unseen.txt", 4, 8, "6 0:1", "7 1:1 2:0.5");
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            seen.toString(),
            "--test",
            unseen.toString(),
            "--drop-unseen",
            "--method",
            "ar-softmax",
            "--epochs",
            "1",
            "--model",
            model.toString());
    assertEquals(2, r.status(), r.err());
    String line = error(r, "train");
    assertTrue(line.contains(unseen.toString()) && line.contains("--drop-unseen"), line);
    assertFalse(line.contains("internal error"), line);
    oldModelKept();
  }

  /** Features of magnitude 1e30: nce's model scores them beyond float range. */
  private Path hugeFeatures() throws IOException {
    Random random = new Random(1);
    String[] rows = new String[200];
    for (int i = 0; i < rows.length; i++) {
      int y = random.nextInt(4);
      StringBuilder row = new StringBuilder().append(y);
      for (int j = 0; j < 3; j++) {
        double x = random.nextGaussian() * 1e30 + (j == y % 3 ? 1e30 : 0);
        row.append(' ').append(j).append(':').append(String.format(Locale.ROOT, "%g", x));
      }
      rows[i] = row.toString();
    }
    return data("huge.txt", 3, 4, rows);
  }

  @Test
  void aModelWhoseTrainingScoresOverflowIsNotSaved() throws Exception {
    Path huge = hugeFeatures();
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            huge.toString(),
            "--method",
            "nce",
            "--epochs",
            "3",
            "--model",
            model.toString());
    assertEquals(1, r.status(), r.err());
    String line = error(r, "train");
    assertTrue(line.contains("not saved") && line.contains("float"), line);
    oldModelKept();
  }

  @Test
  void aModelThatFailsOnItsTestSetIsNotSaved() throws Exception {
    Path huge = hugeFeatures();
    Path test = Files.copy(huge, dir.resolve("huge-test.txt"));
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            huge.toString(),
            "--test",
            test.toString(),
            "--method",
            "nce",
            "--epochs",
            "3",
            "--model",
            model.toString());
    assertEquals(1, r.status(), r.err());
    assertFalse(r.err().contains("model written"), r.err());
    error(r, "train");
    oldModelKept();
  }

  @Test
  void biasesBeyondFloatRangeAreRefusedOnLoadNamingTheFile() throws Exception {
    Path huge = modelFile("b.bin", 2, 4, new float[8], new double[] {1e308, -1e308});
    Path test = data("t.txt", 4, 2, "0 0:1", "1 1:1");
    for (boolean json : new boolean[] {false, true}) {
      CommandRun r =
          json
              ? CommandRun.of(
                  "evaluate", "--model", huge.toString(), "--test", test.toString(), "--json")
              : CommandRun.of("evaluate", "--model", huge.toString(), "--test", test.toString());
      assertEquals(2, r.status(), r.err() + r.out());
      assertEquals("", r.out());
      String line = error(r, "evaluate");
      assertTrue(line.contains(huge.toString()) && line.contains("float range"), line);
    }
  }

  /** Class 0 weighs every feature by FLT_MAX (finite, but w . x overflows float). */
  private Path floatMaxWeights() throws IOException {
    float[] w = new float[2 * 400];
    for (int j = 0; j < 400; j++) {
      w[j] = Float.MAX_VALUE;
    }
    return modelFile("w.bin", 2, 400, w, new double[] {0, 0});
  }

  @Test
  void floatMaxWeightsOnDenseRowsAreRefusedNamingTheFile() throws Exception {
    Path weights = floatMaxWeights();
    StringBuilder dense = new StringBuilder("0");
    for (int j = 0; j < 400; j++) {
      dense.append(' ').append(j).append(":1");
    }
    Path test = data("dense.txt", 400, 2, dense.toString(), dense.toString());
    CommandRun r =
        CommandRun.of("evaluate", "--model", weights.toString(), "--test", test.toString());
    assertEquals(2, r.status(), r.err() + r.out());
    String line = error(r, "evaluate");
    assertTrue(line.contains(weights.toString()) && line.contains("float range"), line);
  }

  @Test
  void floatMaxWeightsOnSparseRowsAreRefusedAsOnDenseOnes() throws Exception {
    // One stored value in 400 columns: scored row by row in double, where 2 * FLT_MAX is finite.
    Path weights = floatMaxWeights();
    Path test = data("sparse.txt", 400, 2, "0 0:2", "1 1:2");
    for (String command : new String[] {"evaluate", "predict"}) {
      CommandRun r =
          CommandRun.of(
              command,
              "--model",
              weights.toString(),
              command.equals("evaluate") ? "--test" : "--input",
              test.toString());
      assertEquals(2, r.status(), r.err() + r.out());
      String line = error(r, command);
      assertTrue(line.contains(weights.toString()) && line.contains("float range"), line);
    }
  }

  @Test
  void aTestSetWiderThanTheModelSaysDComesFromTheModel() throws Exception {
    Path test = data("te.txt", 5, 6, "1 0:1", "2 4:1");
    CommandRun r =
        CommandRun.of("evaluate", "--model", model.toString(), "--test", test.toString());
    assertEquals(2, r.status(), r.err());
    String line = error(r, "evaluate");
    assertTrue(
        line.contains(test + ":3") && line.contains("model file " + model) && line.contains("D"),
        line);
  }

  @Test
  void aTestSetWithMoreClassesThanTheTrainingSetSaysKComesFromIt() throws Exception {
    Path test = data("te.txt", 4, 9, "1 0:1", "8 3:1");
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            train.toString(),
            "--test",
            test.toString(),
            "--method",
            "ar-softmax",
            "--epochs",
            "1");
    assertEquals(2, r.status(), r.err());
    String line = error(r, "train");
    assertTrue(
        line.contains(test + ":3") && line.contains("training set " + train) && line.contains("K"),
        line);
  }
}
