package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.json.SnakeCaseJson;

class CaviCommandTest {
  @TempDir Path dir;

  private static CommandRun cavi(String... args) throws Exception {
    return CommandRun.of(args);
  }

  private void synth(double sigmaHigh) throws Exception {
    CommandRun r =
        CommandRun.of(
            "data",
            "synth",
            "cb",
            "--classes",
            "3",
            "--covariates",
            "6",
            "--rows",
            "1000",
            "--sigma-high",
            Double.toString(sigmaHigh),
            "--seed",
            "4",
            "--out",
            dir.resolve("train.txt").toString(),
            "--test-out",
            dir.resolve("test.txt").toString(),
            "--truth-out",
            dir.resolve("truth.txt").toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("wrote 800 training rows and 200 test rows"), r.out());
    assertEquals(200, Files.readAllLines(dir.resolve("truth.txt")).size());
  }

  @Test
  void reportsElboPerIterationBmaWeightAndHoldoutMetrics() throws Exception {
    synth(2.0);
    CommandRun r =
        cavi(
            "cavi",
            "--train",
            dir.resolve("train.txt").toString(),
            "--test",
            dir.resolve("test.txt").toString(),
            "--link",
            "probit",
            "--iterations",
            "50",
            "--truth",
            dir.resolve("truth.txt").toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("BMA weight on CBC: "), r.out());
    assertTrue(r.out().matches("(?s).*\\n   CBC .*\\n   CBM .*\\n   BMA .*"), r.out());
    assertTrue(r.out().contains("test set, 200 rows"), r.out());
  }

  @Test
  void jsonCarriesTheTraceAndEveryModel() throws Exception {
    synth(0.3);
    CommandRun r =
        cavi(
            "cavi",
            "--train",
            dir.resolve("train.txt").toString(),
            "--link",
            "logit",
            "--diagonal",
            "--json");
    assertEquals(0, r.status(), r.err());
    JsonObject json = SnakeCaseJson.parseObject(r.out());
    assertEquals("logit", json.get("link").getAsString());
    assertTrue(json.get("diagonal").getAsBoolean(), r.out());
    assertTrue(
        json.get("elbo").isJsonArray() && json.has("weight_cbc") && json.get("bma").isJsonObject(),
        r.out());
  }

  @Test
  void badUsageNamesTheProblem() throws Exception {
    CommandRun r = cavi("cavi", "--train", "x.txt", "--link", "cloglog");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("unknown link 'cloglog'; one of probit, logit"), r.err());
    r = cavi("cavi", "--link", "probit");
    assertTrue(r.err().contains("Missing required option: '--train=FILE'"), r.err());
    r = cavi("cavi", "--train", dir.resolve("missing.txt").toString(), "--link", "probit");
    assertEquals(2, r.status());
    assertTrue(r.err().startsWith("largecat cavi: "), r.err());
    r = cavi("cavi", "--train", "x", "--link", "probit", "--iterations", "zero");
    assertTrue(r.err().contains("'--iterations': 'zero' is not an integer"), r.err());
    r = cavi("cavi", "--train", "x", "--link", "probit", "--prior-variance", "0");
    assertTrue(r.err().contains("'--prior-variance': 0 must be a positive finite number"), r.err());
  }
}
