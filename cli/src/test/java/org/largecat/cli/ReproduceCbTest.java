package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.largecat.cli.WrittenTable.number;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.json.SnakeCaseJson;
import org.largecat.prepare.RDataset;

/** The categorical-from-binary experiments of {@code largecat reproduce}, in their quick forms. */
class ReproduceCbTest {
  @TempDir Path dir;

  @Test
  void bmaFollowsTheCloserLikelihoodAndStaysNearTheTruth() throws Exception {
    Path out = dir.resolve("bma");
    CommandRun r =
        CommandRun.of("reproduce", "cb-bma", "--quick", "--threads", "2", "--out", out.toString());
    assertEquals(0, r.status(), r.err());
    List<Map<String, String>> rows = WrittenTable.rows(out.resolve("cb-bma.csv"));
    assertEquals(10, rows.size(), "Figure 1's cells: two sigma_high, five N");
    int favouriteCloser = 0;
    for (Map<String, String> row : rows) {
      double w = number(row, "w_cbc");
      double cbc = number(row, "kl_cbc");
      double cbm = number(row, "kl_cbm");
      double bma = number(row, "kl_bma");
      assertTrue(bma < 0.10, "App. G.2: mean KL below 0.10 throughout; " + row);
      // KL(p || .) is convex, so the mixture is never worse than the weighted KLs of its parts.
      assertTrue(bma <= w * cbc + (1 - w) * cbm + 1e-12, "BMA is a mixture of CBC and CBM: " + row);
      if (number(row, "sigma_high") == 0.1) {
        assertTrue(w < 0.5, "weakly predictable data put the weight on CBM: " + row);
      }
      favouriteCloser += Integer.parseInt(row.get("seeds_favourite_closer"));
      int converged = Integer.parseInt(row.get("seeds_converged"));
      assertTrue(converged >= 0 && converged <= 1, "one seed in the quick form: " + row);
    }
    assertTrue(
        favouriteCloser >= 8,
        favouriteCloser + " of 10 cells favour the likelihood closer to the truth");
    assertTrue(
        Files.size(out.resolve("cb-bma-figure1.png")) > 0
            && Files.exists(out.resolve("cb-bma-weight-2.svg")));
    assertTrue(r.out().contains("paper_w_cbc"), r.out());
  }

  @Test
  void timeTracesBeatGuessingForEveryMethod() throws Exception {
    Path out = dir.resolve("time");
    CommandRun r =
        CommandRun.of("reproduce", "cb-time", "--quick", "--threads", "2", "--out", out.toString());
    assertEquals(0, r.status(), r.err());
    List<Map<String, String>> rows = WrittenTable.rows(out.resolve("cb-time.csv"));
    assertEquals(3, rows.size(), "probit, logit and softmax");
    assertEquals(
        3,
        SnakeCaseJson.parse(Files.readString(out.resolve("cb-time.json"))).getAsJsonArray().size());
    for (Map<String, String> row : rows) {
      double k = number(row, "k");
      assertTrue(
          number(row, "test_loglik") > -Math.log(k) + 0.2, "better than uniform guessing: " + row);
      assertTrue(number(row, "test_accuracy") > 1.5 / k, row.toString());
      assertTrue(number(row, "best_test_loglik") >= number(row, "test_loglik"), row.toString());
      assertTrue(number(row, "seconds") > 0 && number(row, "iterations") >= 1, row.toString());
      WrittenTable.assertRunEnd(row);
      if (row.get("method").startsWith("softmax")) {
        assertEquals("max_seconds", row.get("stopped_because"), "it keeps to its budget: " + row);
      }
    }
    assertTrue(Files.size(out.resolve("cb-time-simulated-small.png")) > 0);
  }

  @Test
  void glassWithoutPreparedDataNamesThePrepareCommand() throws Exception {
    Path data = dir.resolve("empty");
    CommandRun r =
        CommandRun.of(
            "reproduce",
            "cb-glass",
            "--quick",
            "--data",
            data.toString(),
            "--out",
            dir.resolve("out").toString());
    assertEquals(2, r.status());
    assertTrue(
        r.err()
            .contains(
                "run 'largecat data prepare glass --out " + data.resolve("glass") + "' first"),
        r.err());
  }

  @Test
  void glassSplitsGiveTheTableG3Measures() throws Exception {
    if (!RDataset.GLASS.installed()) {
      String message = "glass needs " + RDataset.GLASS.debianPackage().installLine();
      if (Boolean.getBoolean("largecat.test.requireDatasets")) {
        fail(message + "; largecat.test.requireDatasets=true requires it");
      }
      Assumptions.abort(message);
    }
    Path data = dir.resolve("data");
    assertEquals(
        0,
        CommandRun.of("data", "prepare", "glass", "--out", data.resolve("glass").toString())
            .status());
    Path out = dir.resolve("glass");
    CommandRun r =
        CommandRun.of(
            "reproduce", "cb-glass", "--quick", "--data", data.toString(), "--out", out.toString());
    assertEquals(0, r.status(), r.err());
    List<Map<String, String>> rows = WrittenTable.rows(out.resolve("cb-glass.csv"));
    assertEquals(
        List.of("CBC-logit", "CBM-logit", "CBC-probit", "CBM-probit", "softmax"),
        rows.stream().map(m -> m.get("model")).toList());
    for (int link = 0; link < 2; link++) {
      Map<String, String> cbc = rows.get(2 * link);
      Map<String, String> cbm = rows.get(2 * link + 1);
      assertEquals(
          number(cbc, "accuracy"),
          number(cbm, "accuracy"),
          0,
          "Prop. B.5.1: CBC and CBM share the argmax");
    }
    for (Map<String, String> row : rows) {
      assertEquals(3, Integer.parseInt(row.get("splits")));
      int converged = Integer.parseInt(row.get("splits_converged"));
      assertTrue(converged >= 0 && converged <= 3, row.toString());
      // six classes: guessing gives 1/6 likelihood; the paper's fits give 0.35-0.41
      assertTrue(
          number(row, "mean_likelihood") > 0.25 && number(row, "mean_likelihood") < 0.55,
          row.toString());
      assertTrue(number(row, "accuracy") > 0.45, row.toString());
    }
  }
}
