package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.json.SnakeCaseJson;

class SynthCommandTest {
  @TempDir Path dir;

  private static CommandRun run(String... args) throws Exception {
    return CommandRun.of(args);
  }

  @Test
  void simulateFitGenerateReportEndToEnd() throws Exception {
    String real = dir.resolve("real.txt").toString();
    String truth = dir.resolve("truth.bin").toString();
    String model = dir.resolve("model.bin").toString();
    String synthetic = dir.resolve("synthetic.txt").toString();
    CommandRun simulate =
        run(
            "synth",
            "simulate",
            "--users",
            "300",
            "--items",
            "5",
            "--choices",
            "3",
            "--latent",
            "2",
            "--seed",
            "4",
            "--out",
            real,
            "--truth",
            truth);
    assertEquals(0, simulate.status(), simulate.err());
    CommandRun fit =
        run(
            "synth",
            "fit",
            "--data",
            real,
            "--latent",
            "2",
            "--model",
            model,
            "--iterations",
            "3",
            "--threads",
            "2");
    assertEquals(0, fit.status(), fit.err());
    assertTrue(fit.out().contains("bound decreased 0 times"), fit.out());
    CommandRun generate =
        run("synth", "generate", "--model", model, "--users", "200", "--out", synthetic);
    assertEquals(0, generate.status(), generate.err());
    assertEquals(200, Files.readAllLines(Path.of(synthetic)).size());
    CommandRun report =
        run(
            "synth",
            "report",
            "--real",
            real,
            "--synthetic",
            synthetic,
            "--json",
            "--truth",
            truth,
            "--model",
            model);
    assertEquals(0, report.status(), report.err());
    JsonObject json = SnakeCaseJson.parseObject(report.out());
    assertEquals(300, json.get("real_users").getAsInt());
    assertEquals(200, json.get("synthetic_users").getAsInt());
    assertEquals(5, json.get("items").getAsInt());
    assertTrue(
        json.getAsJsonObject("sigma_recovery").get("trace_ratio").getAsDouble() > 0, report.out());
  }

  @Test
  void betaPriorFitsWithANonDecreasingBound() throws Exception {
    String real = dir.resolve("real.txt").toString();
    assertEquals(
        0,
        run(
                "synth",
                "simulate",
                "--users",
                "200",
                "--items",
                "4",
                "--choices",
                "3",
                "--latent",
                "2",
                "--seed",
                "5",
                "--out",
                real)
            .status());
    CommandRun fit =
        run(
            "synth",
            "fit",
            "--data",
            real,
            "--latent",
            "2",
            "--method",
            "beta-prior",
            "--model",
            dir.resolve("model.bin").toString(),
            "--iterations",
            "5",
            "--threads",
            "2");
    assertEquals(0, fit.status(), fit.err());
    assertTrue(
        fit.out().contains("method beta-prior") && fit.out().contains("bound decreased 0 times"),
        fit.out());
    CommandRun refused =
        run(
            "synth",
            "fit",
            "--data",
            real,
            "--latent",
            "2",
            "--method",
            "beta-prior",
            "--samples",
            "4",
            "--model",
            dir.resolve("m.bin").toString());
    assertEquals(2, refused.status());
    assertTrue(
        refused.err().contains("--samples does not apply to --method beta-prior"), refused.err());
  }

  /** The first row of a ResultTable's JSON whose method starts with {@code method}. */
  private static JsonObject row(String json, String method) {
    for (JsonElement row : SnakeCaseJson.parse(json).getAsJsonArray()) {
      if (row.getAsJsonObject().get("method").getAsString().startsWith(method)) {
        return row.getAsJsonObject();
      }
    }
    throw new AssertionError(method + " missing from " + json);
  }

  @Test
  void reproduceSynthFidelityReportsEveryMethodAndTheFloor() throws Exception {
    Path out = dir.resolve("results");
    CommandRun r =
        run(
            "reproduce",
            "synth-fidelity",
            "--quick",
            "--iterations",
            "3",
            "--threads",
            "2",
            "--out",
            out.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("synth-fidelity:"), r.out());
    String json = Files.readString(out.resolve("synth-fidelity.json"));
    for (String method : new String[] {"vem", "laplace", "importance", "beta-prior", "floor"}) {
      JsonObject row = row(json, method);
      double maxTv = row.get("max_tv").getAsDouble();
      double meanTv = row.get("mean_tv").getAsDouble();
      assertTrue(0 < meanTv && meanTv <= maxTv && maxTv < 0.5, method + ": " + row);
      assertTrue(
          row.get("mean_abs_dv").getAsDouble() <= row.get("max_abs_dv").getAsDouble(),
          method + ": " + row);
      if (!method.equals("floor")) {
        assertEquals(3, row.get("iterations").getAsInt(), method + ": " + row);
        assertFalse(row.get("converged").getAsBoolean(), "3 iterations do not settle: " + row);
        double ratio = row.get("sigma_trace_ratio").getAsDouble();
        assertTrue(ratio > 0 && ratio < 2, method + ": " + row);
      }
    }
    // Bound guarantees: vem and beta-prior never decrease; the floor (U = 1,000 against 10,000
    // draws of
    // the truth, K = 5) sits at sampling noise.
    assertEquals(0, row(json, "vem").get("bound_decreases").getAsInt());
    assertEquals(0, row(json, "beta-prior").get("bound_decreases").getAsInt());
    assertTrue(row(json, "floor").get("max_tv").getAsDouble() < 0.06, json);
    for (String figure : new String[] {"synth-fidelity-cramers-v.png", "synth-fidelity-tv.png"}) {
      assertTrue(Files.size(out.resolve(figure)) > 10_000, figure);
    }
  }

  @Test
  void badInputIsAnErrorNamingTheFileAndLine() throws Exception {
    Path ragged = dir.resolve("ragged.txt");
    Files.writeString(ragged, "0 1 2\n1 0\n");
    CommandRun r =
        run(
            "synth",
            "fit",
            "--data",
            ragged.toString(),
            "--latent",
            "2",
            "--model",
            dir.resolve("m.bin").toString());
    assertEquals(2, r.status());
    assertTrue(r.err().contains(ragged + ":2: has 2 choices, the first line has 3"), r.err());

    Path tooLarge = dir.resolve("large.txt");
    Files.writeString(tooLarge, "0 1\n1 5\n");
    r =
        run(
            "synth",
            "fit",
            "--data",
            tooLarge.toString(),
            "--choices",
            "3",
            "--latent",
            "2",
            "--model",
            dir.resolve("m.bin").toString());
    assertEquals(2, r.status());
    assertTrue(r.err().contains(tooLarge + ":2: item 1: choice 5 >= K = 3"), r.err());

    Path notAModel = dir.resolve("not-a-model.bin");
    Files.writeString(notAModel, "hello");
    r =
        run(
            "synth",
            "generate",
            "--model",
            notAModel.toString(),
            "--users",
            "3",
            "--out",
            dir.resolve("o.txt").toString());
    assertEquals(2, r.status());
    assertTrue(r.err().contains(notAModel + ": truncated"), r.err());

    Path good = dir.resolve("good.txt");
    Files.writeString(good, "0 1\n1 0\n");
    r = run("synth", "fit", "--data", good.toString(), "--latent", "0", "--model", "x");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("'--latent': 0 must be >= 1"), r.err());
    r = run("synth", "generate", "--users", "3");
    assertEquals(2, r.status());
    assertTrue(
        r.err().contains("synth generate: Missing required options: '--model=FILE'"), r.err());
  }
}
