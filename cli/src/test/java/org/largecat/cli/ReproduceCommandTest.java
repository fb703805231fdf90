package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * largecat reproduce: the experiment registry, its options, and ar-linear end to end against its
 * known truth.
 */
class ReproduceCommandTest {
  @TempDir Path dir;

  @Test
  void anUnknownExperimentListsTheKnownOnes() throws Exception {
    CommandRun run = CommandRun.of("reproduce", "no-such-thing");
    assertEquals(2, run.status());
    assertTrue(
        run.err()
            .contains(
                "unknown experiment 'no-such-thing'; one of ar-synthetic, ar-real, ar-linear, "),
        run.err());
    for (String name : new String[] {"cb-bma", "cb-time", "cb-glass", "synth-fidelity", "quick"}) {
      assertTrue(run.err().contains(name), name + " missing: " + run.err());
    }
  }

  @Test
  void badOptionsAreRefusedNamingTheOption() throws Exception {
    CommandRun sampling = CommandRun.of("reproduce", "ar-linear", "--sampling", "sometimes");
    assertEquals(2, sampling.status());
    assertTrue(
        sampling.err().contains("unknown sampling 'sometimes'; one of per-example, shared"),
        sampling.err());
    CommandRun iterations = CommandRun.of("reproduce", "ar-linear", "--iterations", "0");
    assertEquals(2, iterations.status());
    assertTrue(iterations.err().contains("'--iterations': 0 must be >= 1"), iterations.err());
  }

  @Test
  void aRealSetThatIsNotPreparedSaysHowToPrepareIt() throws Exception {
    CommandRun run =
        CommandRun.of(
            "reproduce", "ar-real", "--quick", "--data", dir.toString(), "--out", dir.toString());
    assertEquals(2, run.status());
    assertTrue(
        run.err()
            .contains(
                "run 'largecat data prepare fashion-mnist --out " + dir.resolve("fashion-mnist")),
        run.err());
  }

  /**
   * Every method trains on data with known truth: none beats the generating model, each beats
   * uniform, A&R is near exact.
   */
  @Test
  void arLinearWritesItsTableAndFigureAndApproachesTheTruth() throws Exception {
    Path out = dir.resolve("out");
    CommandRun run =
        CommandRun.of(
            "reproduce",
            "ar-linear",
            "--quick",
            "--iterations",
            "400",
            "--threads",
            "2",
            "--out",
            out.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(
        run.out().contains("figures:\n  " + out.resolve("ar-linear-linear-softmax.png")),
        run.out());
    assertTrue(Files.size(out.resolve("ar-linear-linear-softmax.png")) > 10_000);
    assertTrue(Files.size(out.resolve("ar-linear-linear-softmax.svg")) > 10_000);
    List<String> csv = Files.readAllLines(out.resolve("ar-linear.csv"));
    assertEquals(
        "dataset,method,iterations,epochs,stopped_because,converged,seconds_per_epoch,test_loglik,"
            + "test_accuracy,test_examples,paper_seconds_per_epoch,paper_test_loglik,"
            + "paper_test_accuracy",
        csv.get(0));
    List<Map<String, String>> rows = WrittenTable.rows(out.resolve("ar-linear.csv"));
    assertEquals(
        List.of("truth", "exact-softmax-sgd", "ove", "ar-softmax", "ar-probit", "ar-logistic"),
        rows.stream().map(row -> row.get("method")).toList());
    Map<String, Double> loglik = new HashMap<>();
    for (Map<String, String> row : rows) {
      loglik.put(row.get("method"), WrittenTable.number(row, "test_loglik"));
      if (!row.get("method").equals("truth")) {
        // under the stopping rule, at most the 400 iterations given: 10 epochs of 40
        WrittenTable.assertRunEnd(row);
        int epochs = Integer.parseInt(row.get("epochs"));
        assertTrue(epochs >= 1 && epochs <= 10, row.toString());
        assertEquals(40 * epochs, Integer.parseInt(row.get("iterations")), row.toString());
      }
    }
    double uniform = -Math.log(200);
    for (Map.Entry<String, Double> e : loglik.entrySet()) {
      assertTrue(e.getValue() > uniform + 1, e + " does not beat uniform " + uniform);
      assertTrue(
          e.getValue() < loglik.get("truth") + 0.05,
          e + " beats the generating model " + loglik.get("truth"));
    }
    assertTrue(
        Math.abs(loglik.get("ar-softmax") - loglik.get("exact-softmax-sgd"))
            < 0.03 * Math.abs(loglik.get("exact-softmax-sgd")),
        loglik.toString());
  }
}
