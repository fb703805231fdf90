package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.json.SnakeCaseJson;

/** largecat train --method exact-softmax, the full-batch solver, end to end. */
class ExactSoftmaxCommandTest {
  @TempDir Path dir;

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  @BeforeEach
  void synth() throws Exception {
    CommandRun r =
        CommandRun.of(
            "data",
            "synth",
            "softmax",
            "--rows",
            "3000",
            "--test-rows",
            "500",
            "--columns",
            "8",
            "--classes",
            "12",
            "--seed",
            "5",
            "--out",
            file("train.txt"),
            "--test-out",
            file("test.txt"));
    assertEquals(0, r.status(), r.err());
  }

  private JsonObject train(String... more) throws Exception {
    String[] args = {
      "train",
      "--train",
      file("train.txt"),
      "--method",
      "exact-softmax",
      "--prior-variance",
      "10",
      "--json"
    };
    String[] all = Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    CommandRun r = CommandRun.of(all);
    assertEquals(0, r.status(), r.err());
    return SnakeCaseJson.parseObject(r.out());
  }

  /**
   * With the default stopping test the run converges, and its objective is within 1e-6 relative of
   * a run with no relative-change test (to ‖∇‖∞ ≤ 1e-9 or the objective's noise floor); one thread
   * and two give the same objective bit for bit.
   */
  @Test
  void convergesToTheObjectiveOfALongRun() throws Exception {
    JsonObject run = train("--model", file("m.bin"), "--threads", "2");
    assertEquals("exact-softmax", run.get("method").getAsString());
    assertTrue(run.get("converged").getAsBoolean(), run.toString());
    assertEquals("converged", run.get("stopped_because").getAsString());
    assertEquals(3000, run.get("batch").getAsInt());
    assertEquals(11, run.get("sampled").getAsInt());
    int iterations = run.get("iterations").getAsInt();
    assertTrue(iterations > 5 && run.get("epochs").getAsDouble() > iterations, run.toString());
    double bound = run.get("train_bound").getAsDouble();
    double longRun = train("--tol", "0").get("train_bound").getAsDouble();
    assertTrue(longRun >= bound - 1e-12, bound + " then " + longRun);
    assertEquals(longRun, bound, 1e-6 * Math.abs(longRun));
    assertEquals(bound, train("--threads", "1").get("train_bound").getAsDouble());
    CommandRun evaluate =
        CommandRun.of("evaluate", "--model", file("m.bin"), "--test", file("test.txt"), "--json");
    assertEquals(0, evaluate.status(), evaluate.err());
  }

  @Test
  void progressAndTheEndingGoToStandardError() throws Exception {
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "exact-softmax",
            "--max-epochs",
            "3");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.err().contains("train: iteration 1, objective -"), r.err());
    assertTrue(r.err().contains("train: stopped at 3 passes before converging"), r.err());
    assertTrue(r.out().startsWith("exact-softmax: "), r.out());
  }

  @Test
  void optionsOfTheStochasticTrainersAreRefused() throws Exception {
    for (String[] option :
        new String[][] {
          {"--batch", "10"},
          {"--sampled", "3"},
          {"--step", "sgd"},
          {"--learning-rate", "0.1"},
          {"--sampling", "shared"},
          {"--sampling-power", "0.5"},
          {"--epochs", "2"},
          {"--iterations", "2"},
          {"--patience", "2"}
        }) {
      CommandRun r =
          CommandRun.of(
              "train",
              "--train",
              file("train.txt"),
              "--method",
              "exact-softmax",
              option[0],
              option[1]);
      assertEquals(2, r.status(), option[0] + ": " + r.err());
      assertTrue(
          r.err().startsWith("largecat train: " + option[0] + " does not apply to exact-softmax"),
          r.err());
    }
  }

  /**
   * (D + 1) K = 10⁸ parameters: the L-BFGS state alone is about 20 GB, refused before any of it is
   * allocated.
   */
  @Test
  void aModelWhoseStateExceedsTheHeapIsRefusedWithTheFigure() throws Exception {
    Files.writeString(dir.resolve("wide.txt"), "2 9999 10000\n0 0:1\n9999 9998:1\n");
    CommandRun r = CommandRun.of("train", "--train", file("wide.txt"), "--method", "exact-softmax");
    assertEquals(2, r.status(), r.err());
    assertTrue(
        r.err().startsWith("largecat train: exact-softmax's L-BFGS state (m = 10 pairs"), r.err());
    assertTrue(r.err().contains("GB needed, more than the"), r.err());
    assertTrue(r.err().contains("or use --method ar-softmax"), r.err());
  }

  @Test
  void tuneHasNothingToTune() throws Exception {
    CommandRun r = CommandRun.of("tune", "--train", file("train.txt"), "--method", "exact-softmax");
    assertEquals(2, r.status(), r.err());
    assertTrue(
        r.err().startsWith("largecat tune: exact-softmax has no learning rate to tune"), r.err());
  }

  /**
   * Without --method, train picks the full-batch solver for a problem this small and says why; an
   * option only the stochastic methods take sends it to ar-softmax instead.
   */
  @Test
  void autoPicksTheSolverWhenItFitsAndSaysWhy() throws Exception {
    CommandRun picked = CommandRun.of("train", "--train", file("train.txt"), "--json");
    assertEquals(0, picked.status(), picked.err());
    assertEquals(
        "exact-softmax", SnakeCaseJson.parseObject(picked.out()).get("method").getAsString());
    assertTrue(
        picked.err().contains("train: chose exact-softmax: the full-batch solver fits"),
        picked.err());
    CommandRun sampled =
        CommandRun.of(
            "train", "--train", file("train.txt"), "--method", "auto", "--epochs", "1", "--json");
    assertEquals(0, sampled.status(), sampled.err());
    assertEquals(
        "ar-softmax", SnakeCaseJson.parseObject(sampled.out()).get("method").getAsString());
    assertTrue(
        sampled
            .err()
            .contains("train: chose ar-softmax: epochs set, which exact-softmax does not take"),
        sampled.err());
  }
}
