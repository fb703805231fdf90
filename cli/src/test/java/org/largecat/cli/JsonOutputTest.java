package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.json.SnakeCaseJson;

/**
 * Every command's {@code --json} output parses, has snake_case keys throughout, and the keys and
 * types it promises.
 */
class JsonOutputTest {
  @TempDir Path dir;

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  private static JsonObject json(String... args) throws Exception {
    CommandRun r = CommandRun.of(args);
    assertEquals(0, r.status(), r.err());
    return SnakeCaseJson.parseObject(r.out());
  }

  private static double number(JsonObject o, String key) {
    JsonElement e = o.get(key);
    assertTrue(
        e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber(),
        key + " is not a number in " + o);
    return e.getAsDouble();
  }

  private static String string(JsonObject o, String key) {
    JsonElement e = o.get(key);
    assertTrue(
        e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString(),
        key + " is not a string in " + o);
    return e.getAsString();
  }

  private static boolean bool(JsonObject o, String key) {
    JsonElement e = o.get(key);
    assertTrue(
        e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isBoolean(),
        key + " is not a boolean in " + o);
    return e.getAsBoolean();
  }

  private static void isNull(JsonObject o, String key) {
    assertTrue(o.has(key) && o.get(key).isJsonNull(), key + " is not null in " + o);
  }

  private static void numberOrNull(JsonObject o, String key) {
    if (!o.get(key).isJsonNull()) {
      number(o, key);
    }
  }

  @Test
  void trainEvaluateAndTune() throws Exception {
    assertEquals(
        0,
        CommandRun.of(
                "data",
                "synth",
                "softmax",
                "--rows",
                "600",
                "--columns",
                "5",
                "--classes",
                "6",
                "--seed",
                "3",
                "--out",
                file("train.txt"))
            .status());
    assertEquals(
        0,
        CommandRun.of(
                "data",
                "synth",
                "softmax",
                "--rows",
                "200",
                "--columns",
                "5",
                "--classes",
                "6",
                "--seed",
                "4",
                "--out",
                file("test.txt"))
            .status());
    JsonObject train =
        json(
            "train",
            "--train",
            file("train.txt"),
            "--test",
            file("test.txt"),
            "--method",
            "ar-softmax",
            "--iterations",
            "30",
            "--threads",
            "1",
            "--model",
            file("m.bin"),
            "--json");
    assertEquals("ar-softmax", string(train, "method"));
    string(train, "backend");
    assertEquals(30, number(train, "iterations"));
    number(train, "batch");
    number(train, "sampled");
    for (String key :
        new String[] {
          "seconds", "seconds_per_epoch", "train_bound", "test_loglik", "test_accuracy", "test_top5"
        }) {
      number(train, key);
    }
    assertEquals("iterations", string(train, "stopped_because"));
    assertTrue(train.get("converged").isJsonNull(), train.toString());
    number(train, "epochs");
    for (String key : new String[] {"watched", "watched_loglik", "watched_rows"}) {
      isNull(train, key);
    }
    assertEquals(0, number(train, "prior_variance"));
    string(train, "prior_reason");
    assertEquals(0, train.getAsJsonArray("prior_path").size());
    assertEquals(20, train.size(), train.toString());

    JsonObject ruled =
        json(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ove",
            "--max-epochs",
            "1",
            "--threads",
            "1",
            "--json");
    assertEquals("held_out_rows", string(ruled, "watched"));
    assertTrue(number(ruled, "watched_loglik") < 0, ruled.toString());
    assertEquals(120, number(ruled, "watched_rows"), "a fifth of 600 rows held out");

    JsonObject fullBatch =
        json("train", "--train", file("train.txt"), "--method", "exact-softmax", "--json");
    assertEquals("objective", string(fullBatch, "watched"));
    isNull(fullBatch, "watched_loglik");
    isNull(fullBatch, "watched_rows");
    assertTrue(number(fullBatch, "prior_variance") > 0, fullBatch.toString());
    assertTrue(string(fullBatch, "prior_reason").startsWith("chosen on 120 held-out examples"));
    JsonObject trial = fullBatch.getAsJsonArray("prior_path").get(0).getAsJsonObject();
    assertEquals(0.001, number(trial, "variance"));
    assertTrue(number(trial, "held_out_log_likelihood") < 0, trial.toString());

    JsonObject withoutTest =
        json(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ove",
            "--iterations",
            "5",
            "--threads",
            "1",
            "--json");
    for (String key : new String[] {"test_loglik", "test_accuracy", "test_top5"}) {
      isNull(withoutTest, key);
    }

    JsonObject evaluate =
        json(
            "evaluate",
            "--model",
            file("m.bin"),
            "--test",
            file("test.txt"),
            "--threads",
            "1",
            "--json");
    assertEquals(
        number(train, "test_loglik"),
        number(evaluate, "test_loglik"),
        0,
        "the same model on the same set");
    assertEquals(number(train, "test_accuracy"), number(evaluate, "test_accuracy"), 0);
    number(evaluate, "test_top5");
    assertEquals(200, number(evaluate, "examples"));

    JsonObject tune =
        json(
            "tune",
            "--train",
            file("train.txt"),
            "--method",
            "sgd",
            "--fraction",
            "0.5",
            "--epochs",
            "1",
            "--threads",
            "1",
            "--json");
    assertEquals("sgd", string(tune, "method"));
    assertEquals(300, number(tune, "rows"));
    numberOrNull(tune, "best_learning_rate");
    assertEquals(7, tune.getAsJsonArray("results").size(), tune.toString());
    for (JsonElement result : tune.getAsJsonArray("results")) {
      number(result.getAsJsonObject(), "learning_rate");
      numberOrNull(result.getAsJsonObject(), "log_loss");
    }
  }

  @Test
  void cavi() throws Exception {
    assertEquals(
        0,
        CommandRun.of(
                "data",
                "synth",
                "cb",
                "--classes",
                "3",
                "--covariates",
                "4",
                "--rows",
                "300",
                "--sigma-high",
                "1",
                "--seed",
                "2",
                "--out",
                file("train.txt"),
                "--test-out",
                file("test.txt"),
                "--truth-out",
                file("truth.txt"))
            .status());
    JsonObject cavi =
        json(
            "cavi",
            "--train",
            file("train.txt"),
            "--test",
            file("test.txt"),
            "--truth",
            file("truth.txt"),
            "--link",
            "probit",
            "--iterations",
            "5",
            "--threads",
            "1",
            "--json");
    assertEquals("probit", string(cavi, "link"));
    assertEquals(false, bool(cavi, "diagonal"));
    bool(cavi, "converged");
    string(cavi, "backend");
    assertEquals("test", string(cavi, "evaluated_on"));
    for (String key :
        new String[] {
          "rows",
          "features",
          "classes",
          "threads",
          "elbo_per_cell",
          "iterations",
          "fit_seconds",
          "samples",
          "log_evidence_cbc",
          "log_evidence_cbm",
          "weight_cbc"
        }) {
      number(cavi, key);
    }
    assertTrue(cavi.getAsJsonArray("elbo").size() >= 2, cavi.toString());
    cavi.getAsJsonArray("elbo")
        .forEach(e -> assertTrue(e.getAsJsonPrimitive().isNumber(), cavi.toString()));
    // One wall time per update: the ELBO trace has the starting point besides.
    assertEquals(
        number(cavi, "iterations"),
        cavi.getAsJsonArray("iteration_seconds").size(),
        cavi.toString());
    cavi.getAsJsonArray("iteration_seconds")
        .forEach(e -> assertTrue(e.getAsDouble() > 0, cavi.toString()));
    for (String model : new String[] {"cbc", "cbm", "bma"}) {
      JsonObject scores = cavi.getAsJsonObject(model);
      number(scores, "mean_loglik");
      number(scores, "accuracy");
      number(scores, "mean_kl");
    }

    JsonObject withoutTruth =
        json(
            "cavi",
            "--train",
            file("train.txt"),
            "--link",
            "logit",
            "--diagonal",
            "--iterations",
            "3",
            "--threads",
            "1",
            "--json");
    assertEquals("train", string(withoutTruth, "evaluated_on"));
    isNull(withoutTruth.getAsJsonObject("bma"), "mean_kl");
  }

  @Test
  void synthReport() throws Exception {
    assertEquals(
        0,
        CommandRun.of(
                "synth",
                "simulate",
                "--users",
                "100",
                "--items",
                "4",
                "--choices",
                "3",
                "--latent",
                "2",
                "--seed",
                "1",
                "--out",
                file("real.txt"),
                "--truth",
                file("truth.bin"))
            .status());
    assertEquals(
        0,
        CommandRun.of(
                "synth",
                "generate",
                "--model",
                file("truth.bin"),
                "--users",
                "80",
                "--out",
                file("synthetic.txt"))
            .status());
    JsonObject report =
        json(
            "synth",
            "report",
            "--real",
            file("real.txt"),
            "--synthetic",
            file("synthetic.txt"),
            "--truth",
            file("truth.bin"),
            "--model",
            file("truth.bin"),
            "--json");
    assertEquals(100, number(report, "real_users"));
    assertEquals(80, number(report, "synthetic_users"));
    assertEquals(4, number(report, "items"));
    for (String key :
        new String[] {
          "max_marginal_tv", "mean_abs_cramers_v_difference", "max_abs_cramers_v_difference"
        }) {
      number(report, key);
    }
    assertEquals(4, report.getAsJsonArray("marginal_tv").size());
    for (String key : new String[] {"cramers_v_real", "cramers_v_synthetic"}) {
      assertEquals(4, report.getAsJsonArray(key).size());
      assertEquals(
          1, report.getAsJsonArray(key).get(0).getAsJsonArray().get(0).getAsDouble(), 1e-12, key);
    }
    JsonObject sigma = report.getAsJsonObject("sigma_recovery");
    assertEquals(1, number(sigma, "trace_ratio"), 1e-9, "the truth recovers itself");
    for (String key :
        new String[] {"slope", "correlation", "mean_variance_ratio", "alignment_residual"}) {
      number(sigma, key);
    }
    assertEquals(2, sigma.getAsJsonArray("sigma_true").size());
    assertEquals(2, sigma.getAsJsonArray("sigma_aligned").get(1).getAsJsonArray().size());

    JsonObject withoutTruth =
        json(
            "synth",
            "report",
            "--real",
            file("real.txt"),
            "--synthetic",
            file("synthetic.txt"),
            "--json");
    isNull(withoutTruth, "sigma_recovery");
  }
}
