package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.json.SnakeCaseJson;

/**
 * {@code largecat reproduce double-sum --quick} at a few epochs: Table 3's shape, the runs, Figure
 * 2's rates, the figures.
 */
class ReproduceDoubleSumTest {
  private static final List<String> METHODS =
      List.of("ove", "nce", "is", "sgd", "umax", "isgd", "isgd-batch", "umax-raman");

  @Test
  void quickRunsEveryMethodOnTheGeneratedProblemAndRelatesItToImplicitSgd(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("results");
    CommandRun run =
        CommandRun.of(
            "reproduce",
            "double-sum",
            "--quick",
            "--iterations",
            "4",
            "--threads",
            "1",
            "--out",
            out.toString(),
            "--data",
            dir.resolve("no-data").toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("double-sum-table3:"), run.out());
    assertTrue(
        !run.err().contains("skipping"), "the quick version reads no real set: " + run.err());

    List<String> table3 = Files.readAllLines(out.resolve("double-sum-table3.csv"));
    assertEquals(
        "dataset," + String.join(",", METHODS).replace('-', '_') + ",epochs,note", table3.get(0));
    assertEquals(2, table3.size(), "one generated problem in the quick version: " + table3);
    assertTrue(
        SnakeCaseJson.parse(Files.readString(out.resolve("double-sum-table3.json")))
            .getAsJsonArray()
            .get(0)
            .getAsJsonObject()
            .has("umax_raman"));
    String[] row = table3.get(1).split(",");
    assertEquals("synthetic-k50", row[0]);
    assertEquals(
        1.0, Double.parseDouble(row[1 + METHODS.indexOf("isgd")]), 0, "isgd relative to itself");
    assertEquals("4", row[1 + METHODS.size()]);

    List<Map<String, String>> runs = WrittenTable.rows(out.resolve("double-sum-runs.csv"));
    assertEquals(METHODS, runs.stream().map(r -> r.get("method")).toList());
    double logK = Math.log(50);
    for (Map<String, String> r : runs) {
      assertEquals("default", r.get("rate_from"));
      // Figure 1's protocol: every method runs the same epochs, judged but not stopped by the rule
      WrittenTable.assertRunEnd(r);
      assertEquals("fixed_epochs", r.get("stopped_because"), r.toString());
      assertEquals("4", r.get("epochs"));
      double logLoss = WrittenTable.number(r, "log_loss");
      // Finite and positive; at its Table 2 rate of 10^3 NCE is still far above log K after 4
      // epochs.
      assertTrue(logLoss > 0 && Double.isFinite(logLoss), r.get("method") + " log-loss " + logLoss);
      if (r.get("method").equals("isgd")) {
        assertTrue(
            logLoss < logK,
            "Implicit SGD did not improve on the all-zero model's log K: " + logLoss);
      }
    }

    List<Map<String, String>> formulations =
        WrittenTable.rows(out.resolve("double-sum-formulations.csv"));
    assertEquals(7 + 1, formulations.size(), "7 learning rates and their mean: " + formulations);
    for (Map<String, String> rate : formulations.subList(0, 7)) {
      assertTrue(Set.of("true", "false").contains(rate.get("converged_eq6")), rate.toString());
      assertTrue(Set.of("true", "false").contains(rate.get("converged_eq8")), rate.toString());
    }
    assertEquals("mean", formulations.get(7).get("learning_rate"));
    for (String figure :
        new String[] {"double-sum-figure1-synthetic-k50", "double-sum-figure2-synthetic-k50"}) {
      assertTrue(Files.size(out.resolve(figure + ".png")) > 1000, figure);
      assertTrue(Files.readString(out.resolve(figure + ".svg")).contains("<svg"), figure);
    }
  }
}
