package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.json.SnakeCaseJson;

/**
 * largecat train, evaluate, predict and data synth end to end, through the command's entry point.
 */
class TrainCommandTest {
  @TempDir Path dir;

  private static CommandRun largecat(String... args) throws Exception {
    return CommandRun.of(args);
  }

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  private void synth() throws Exception {
    assertEquals(
        0,
        largecat(
                "data",
                "synth",
                "softmax",
                "--rows",
                "4000",
                "--columns",
                "8",
                "--classes",
                "12",
                "--seed",
                "5",
                "--out",
                file("train.txt"))
            .status());
    assertEquals(
        0,
        largecat(
                "data",
                "synth",
                "softmax",
                "--rows",
                "1000",
                "--columns",
                "8",
                "--classes",
                "12",
                "--seed",
                "5",
                "--out",
                file("test.txt"))
            .status());
  }

  @Test
  void trainWritesAModelThatEvaluateAndPredictRead() throws Exception {
    synth();
    CommandRun train =
        largecat(
            "train",
            "--train",
            file("train.txt"),
            "--test",
            file("test.txt"),
            "--method",
            "ar-softmax",
            "--batch",
            "100",
            "--sampled",
            "4",
            "--epochs",
            "10",
            "--threads",
            "2",
            "--model",
            file("m.bin"),
            "--json");
    assertEquals(0, train.status(), train.err());
    JsonObject summary = SnakeCaseJson.parseObject(train.out());
    for (String field :
        new String[] {
          "method",
          "backend",
          "iterations",
          "seconds",
          "seconds_per_epoch",
          "train_bound",
          "test_loglik",
          "test_accuracy",
          "test_top5"
        }) {
      assertTrue(summary.has(field), field + " missing: " + train.out());
    }
    for (String field : new String[] {"watched", "watched_loglik", "watched_rows"}) {
      assertTrue(summary.get(field).isJsonNull(), "--epochs watches nothing: " + train.out());
    }
    CommandRun evaluate =
        largecat("evaluate", "--model", file("m.bin"), "--test", file("test.txt"), "--json");
    assertEquals(0, evaluate.status(), evaluate.err());
    double loglik = summary.get("test_loglik").getAsDouble();
    assertEquals(
        loglik,
        SnakeCaseJson.parseObject(evaluate.out()).get("test_loglik").getAsDouble(),
        0,
        evaluate.out());
    double truth =
        SnakeCaseJson.parseObject(
                largecat(
                        "evaluate",
                        "--model",
                        file("train.txt.truth"),
                        "--test",
                        file("test.txt"),
                        "--json")
                    .out())
            .get("test_loglik")
            .getAsDouble();
    assertTrue(
        loglik > truth - 0.1 * Math.abs(truth), loglik + " vs the generating model's " + truth);
    CommandRun predict =
        largecat("predict", "--model", file("m.bin"), "--input", file("test.txt"), "--top", "3");
    assertEquals(0, predict.status(), predict.err());
    String[] lines = predict.out().split("\n");
    assertEquals(1000, lines.length);
    assertTrue(lines[0].matches("\\d+:[0-9.eE-]+ \\d+:[0-9.eE-]+ \\d+:[0-9.eE-]+"), lines[0]);
    CommandRun all =
        largecat("predict", "--model", file("m.bin"), "--input", file("test.txt"), "--top", "50");
    assertEquals(0, all.status(), all.err());
    assertTrue(
        all.err()
            .contains("predict: --top 50 is more than the model's K = 12 classes; printing all 12"),
        all.err());
    assertEquals(12, all.out().split("\n")[0].split(" ").length);
  }

  @Test
  void everyMethodAndSamplingModeRunsFromTheCommandLine() throws Exception {
    synth();
    for (String method :
        new String[] {"ar-softmax", "ar-probit", "ar-logistic", "ove", "exact-softmax-sgd"}) {
      for (String sampling : new String[] {"per-example", "shared"}) {
        CommandRun r =
            largecat(
                "train",
                "--train",
                file("train.txt"),
                "--method",
                method,
                "--batch",
                "200",
                "--sampled",
                "4",
                "--iterations",
                "20",
                "--sampling",
                sampling,
                "--json");
        assertEquals(0, r.status(), method + " " + sampling + ": " + r.err());
        assertEquals(
            method, SnakeCaseJson.parseObject(r.out()).get("method").getAsString(), r.out());
      }
    }
  }

  @Test
  void badInputIsRefusedWithTheFileLineAndReason() throws Exception {
    Files.writeString(dir.resolve("bad.txt"), "2 3 2\n0 1:0.5\n1 7:1\n");
    CommandRun r = largecat("train", "--train", file("bad.txt"), "--method", "ove");
    assertEquals(2, r.status());
    assertTrue(r.err().contains(file("bad.txt") + ":3: feature index 7 is beyond D = 3"), r.err());
    CommandRun usage = largecat("train", "--train", file("bad.txt"), "--method", "nonsense");
    assertEquals(2, usage.status());
    assertTrue(usage.err().contains("unknown method 'nonsense'"), usage.err());
    Files.write(dir.resolve("m.bin"), new byte[] {1, 2, 3});
    CommandRun model = largecat("evaluate", "--model", file("m.bin"), "--test", file("bad.txt"));
    assertEquals(2, model.status());
    assertTrue(model.err().contains("cannot load model"), model.err());
  }

  /**
   * Without --epochs the stopping rule runs: until converged, or at a cap that it says it hit;
   * --json says what it watched.
   */
  @Test
  void withoutEpochsTrainingRunsUntilTheStoppingRuleEndsIt() throws Exception {
    synth();
    CommandRun converged =
        largecat(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ove",
            "--threads",
            "1",
            "--tol",
            "1e-3",
            "--validation-fraction",
            "0",
            "--model",
            file("ove.bin"),
            "--json");
    assertEquals(0, converged.status(), converged.err());
    JsonObject summary = SnakeCaseJson.parseObject(converged.out().strip());
    assertEquals("converged", summary.get("stopped_because").getAsString(), converged.err());
    assertTrue(summary.get("converged").getAsBoolean());
    double epochs = summary.get("epochs").getAsDouble();
    assertTrue(epochs >= 4 && epochs < 100 && epochs == Math.rint(epochs), summary.toString());
    assertTrue(
        converged
            .err()
            .contains(
                "train: the stopping rule watches the exact log-likelihood of 4000 training rows"),
        converged.err());
    assertTrue(
        converged.err().contains("train: epoch 2, training rows' log-likelihood "),
        converged.err());
    assertEquals("training_rows", summary.get("watched").getAsString());
    assertEquals(4000, summary.get("watched_rows").getAsInt());
    double watched = summary.get("watched_loglik").getAsDouble();
    assertTrue(
        converged.lastEpochPrinted("training rows' log-likelihood", watched),
        watched + " is not the last epoch's: " + converged.err());
    // All 4,000 rows are watched: evaluate on the training set is the same sum, in the same order.
    CommandRun evaluate =
        largecat("evaluate", "--model", file("ove.bin"), "--test", file("train.txt"), "--json");
    assertEquals(0, evaluate.status(), evaluate.err());
    assertEquals(
        SnakeCaseJson.parseObject(evaluate.out()).get("test_loglik").getAsDouble(),
        watched,
        0,
        evaluate.out());

    CommandRun capped =
        largecat(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ove",
            "--threads",
            "1",
            "--max-epochs",
            "2",
            "--tol",
            "0.5",
            "--validation-fraction",
            "0",
            "--json");
    assertEquals(0, capped.status(), capped.err());
    JsonObject cappedSummary = SnakeCaseJson.parseObject(capped.out().strip());
    assertEquals("max_epochs", cappedSummary.get("stopped_because").getAsString());
    assertEquals(false, cappedSummary.get("converged").getAsBoolean());
    assertEquals(2.0, cappedSummary.get("epochs").getAsDouble());
    assertTrue(capped.err().contains("train: stopped at 2 epochs before converging"), capped.err());

    CommandRun held =
        largecat(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ove",
            "--threads",
            "1",
            "--validation-fraction",
            "0.2",
            "--tol",
            "1e-3",
            "--json");
    assertEquals(0, held.status(), held.err());
    assertTrue(held.err().contains("train: 800 examples held out"), held.err());
    assertTrue(held.err().contains("train: epoch 2, held-out log-likelihood "), held.err());
    JsonObject heldSummary = SnakeCaseJson.parseObject(held.out().strip());
    assertEquals("converged", heldSummary.get("stopped_because").getAsString());
    assertEquals("held_out_rows", heldSummary.get("watched").getAsString());
    assertEquals(800, heldSummary.get("watched_rows").getAsInt());
    assertTrue(
        held.bestEpochPrinted(
            "held-out log-likelihood", heldSummary.get("watched_loglik").getAsDouble()),
        held.out() + held.err());

    CommandRun bound =
        largecat(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ar-probit",
            "--threads",
            "1",
            "--max-epochs",
            "2",
            "--json");
    assertEquals(0, bound.status(), bound.err());
    JsonObject boundSummary = SnakeCaseJson.parseObject(bound.out().strip());
    assertEquals("train_bound", boundSummary.get("watched").getAsString());
    assertTrue(
        bound.lastEpochPrinted("bound", boundSummary.get("train_bound").getAsDouble()),
        bound.out() + bound.err());
    assertTrue(boundSummary.get("watched_loglik").isJsonNull(), bound.out());
    assertTrue(boundSummary.get("watched_rows").isJsonNull(), bound.out());

    CommandRun both =
        largecat(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ove",
            "--epochs",
            "2",
            "--tol",
            "1e-3");
    assertEquals(2, both.status());
    assertTrue(both.err().contains("runs only without --epochs and --iterations"), both.err());
  }

  /** --test-rows draws the test set from the same model as the training set, other rows. */
  @Test
  void synthWritesATestSetFromTheSameModel() throws Exception {
    CommandRun r =
        largecat(
            "data",
            "synth",
            "softmax",
            "--rows",
            "300",
            "--test-rows",
            "100",
            "--columns",
            "4",
            "--classes",
            "5",
            "--seed",
            "9",
            "--out",
            file("a.txt"),
            "--test-out",
            file("b.txt"));
    assertEquals(0, r.status(), r.err());
    List<String> train = Files.readAllLines(dir.resolve("a.txt"));
    List<String> test = Files.readAllLines(dir.resolve("b.txt"));
    assertEquals("300 4 5", train.getFirst());
    assertEquals("100 4 5", test.getFirst());
    CommandRun whole =
        largecat(
            "data",
            "synth",
            "softmax",
            "--rows",
            "400",
            "--columns",
            "4",
            "--classes",
            "5",
            "--seed",
            "9",
            "--out",
            file("all.txt"));
    assertEquals(0, whole.status(), whole.err());
    List<String> all = Files.readAllLines(dir.resolve("all.txt"));
    assertEquals(all.subList(1, 301), train.subList(1, 301));
    assertEquals(all.subList(301, 401), test.subList(1, 101));
    assertEquals(
        Files.readString(
            dir.resolve("all.txt.truth"), java.nio.charset.StandardCharsets.ISO_8859_1),
        Files.readString(dir.resolve("a.txt.truth"), java.nio.charset.StandardCharsets.ISO_8859_1));
    CommandRun half =
        largecat("data", "synth", "softmax", "--test-rows", "5", "--out", file("c.txt"));
    assertEquals(2, half.status());
    assertTrue(half.err().contains("give --test-rows and --test-out together"), half.err());
  }
}
