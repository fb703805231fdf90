package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.kernel.Kernels;

class SparkCommandTest {
  private static final Pattern ELBO_ROW =
      Pattern.compile("^\\s*\\d+\\s+(-?\\d+\\.\\d+)\\s", Pattern.MULTILINE);
  private static final Pattern BMA = Pattern.compile("BMA weight on CBC: (\\S+) ");

  @TempDir Path dir;

  @Test
  void kernelsReportsTheBackendChoiceOfEachExecutor() throws Exception {
    CommandRun run = CommandRun.of("spark", "kernels", "--master", "local[2]", "--partitions", "3");
    assertEquals(0, run.status(), run.err());
    // Local mode: the one executor is this JVM, which chose as Kernels.get() did.
    assertEquals(
        "executor driver on 127.0.0.1: " + Kernels.get().describeChoice() + "\n",
        run.out().replace(System.lineSeparator(), "\n"));
  }

  @Test
  void caviGivesTheSingleMachineElboTraceAndBmaWeight() throws Exception {
    synthCb();
    String train = dir.resolve("train.txt").toString();
    String[] fit = {"--link", "probit", "--iterations", "30", "--seed", "3"};
    CommandRun single = CommandRun.of(concat(new String[] {"cavi", "--train", train}, fit));
    assertEquals(0, single.status(), single.err());
    CommandRun spark =
        CommandRun.of(
            concat(
                new String[] {
                  "spark", "cavi", "--train", train, "--master", "local[2]", "--partitions", "3"
                },
                fit));
    assertEquals(0, spark.status(), spark.err());
    List<Double> want = numbers(ELBO_ROW, single.out());
    List<Double> got = numbers(ELBO_ROW, spark.out());
    assertEquals(want.size(), got.size(), spark.out());
    for (int t = 0; t < want.size(); t++) {
      // Printed to 10 decimals; the sums differ only in their order.
      assertEquals(want.get(t), got.get(t), 1e-9 * Math.abs(want.get(t)) + 1e-10, "ELBO " + t);
    }
    assertEquals(numbers(BMA, single.out()).getFirst(), numbers(BMA, spark.out()).getFirst(), 1e-6);
  }

  @Test
  void caviScoresTheTestSetAsTheSingleMachineDoesInJson() throws Exception {
    synthCb();
    String[] args = {
      "--train",
      dir.resolve("train.txt").toString(),
      "--test",
      dir.resolve("test.txt").toString(),
      "--link",
      "logit",
      "--iterations",
      "20",
      "--json"
    };
    CommandRun single = CommandRun.of(concat(new String[] {"cavi"}, args));
    CommandRun spark =
        CommandRun.of(concat(new String[] {"spark", "cavi", "--master", "local[2]"}, args));
    assertEquals(0, single.status(), single.err());
    assertEquals(0, spark.status(), spark.err());
    JsonObject want = JsonParser.parseString(single.out()).getAsJsonObject();
    JsonObject got = JsonParser.parseString(spark.out()).getAsJsonObject();
    assertEquals("test", got.get("evaluated_on").getAsString());
    assertEquals(want.get("iterations").getAsInt(), got.get("iterations").getAsInt());
    assertEquals(want.get("weight_cbc").getAsDouble(), got.get("weight_cbc").getAsDouble(), 1e-9);
    for (String model : new String[] {"cbc", "cbm", "bma"}) {
      JsonObject w = want.getAsJsonObject(model);
      JsonObject g = got.getAsJsonObject(model);
      assertEquals(
          w.get("mean_loglik").getAsDouble(), g.get("mean_loglik").getAsDouble(), 1e-9, model);
      assertEquals(w.get("accuracy").getAsDouble(), g.get("accuracy").getAsDouble(), 1e-12, model);
      assertTrue(g.get("mean_kl").isJsonNull(), spark.out());
    }
  }

  @Test
  void aModelTrainedOnSparkScoresTheSameInEvaluateAndSparkEvaluate() throws Exception {
    synthCb();
    String train = dir.resolve("train.txt").toString();
    String test = dir.resolve("test.txt").toString();
    String model = dir.resolve("m.bin").toString();
    CommandRun trained =
        CommandRun.of(
            "spark",
            "train",
            "--train",
            train,
            "--test",
            test,
            "--method",
            "ar-softmax",
            "--epochs",
            "2",
            "--rounds",
            "4",
            "--batch",
            "20",
            "--model",
            model,
            "--master",
            "local[2]",
            "--partitions",
            "2");
    assertEquals(0, trained.status(), trained.err());
    CommandRun single = CommandRun.of("evaluate", "--model", model, "--test", test);
    CommandRun spark =
        CommandRun.of(
            "spark", "evaluate", "--model", model, "--test", test, "--master", "local[2]");
    assertEquals(0, single.status(), single.err());
    assertEquals(0, spark.status(), spark.err());
    assertEquals(single.out(), spark.out());
    assertTrue(trained.out().contains("(2.00 epochs)"), trained.out());
    assertTrue(trained.out().contains("test: " + single.out()), trained.out());
  }

  @Test
  void sparkTrainRunsUnderTheStoppingRuleAndSaysWhyItStopped() throws Exception {
    synthCb();
    String train = dir.resolve("train.txt").toString();
    String model = dir.resolve("m.bin").toString();
    CommandRun ruled =
        CommandRun.of(
            "spark",
            "train",
            "--train",
            train,
            "--method",
            "ar-softmax",
            "--rank",
            "4",
            "--rounds",
            "2",
            "--batch",
            "20",
            "--max-epochs",
            "2",
            "--tol",
            "1e-12",
            "--validation-fraction",
            "0",
            "--model",
            model,
            "--master",
            "local[2]",
            "--partitions",
            "2",
            "--json");
    assertEquals(0, ruled.status(), ruled.err());
    assertTrue(
        ruled.err().contains("spark train: epoch 2, training rows' log-likelihood "), ruled.err());
    assertTrue(
        ruled.err().contains("spark train: stopped at 2 epochs before converging"), ruled.err());
    JsonObject summary = JsonParser.parseString(ruled.out()).getAsJsonObject();
    assertEquals(2.0, summary.get("epochs").getAsDouble(), ruled.out());
    assertEquals("training_rows", summary.get("watched").getAsString(), ruled.out());
    int rows = summary.get("watched_rows").getAsInt();
    assertEquals(
        Files.readAllLines(Path.of(train)).size() - 1,
        rows,
        "fewer rows than the fewest watched: all are watched");
    double watched = summary.get("watched_loglik").getAsDouble();
    assertTrue(
        ruled.lastEpochPrinted("training rows' log-likelihood", watched),
        watched + " is not the last epoch's: " + ruled.err());
    // The same rows on one machine: the same terms, summed in another order, each order's sum of
    // these negative terms within (rows − 1)u of its own magnitude.
    CommandRun single = CommandRun.of("evaluate", "--model", model, "--test", train, "--json");
    assertEquals(0, single.status(), single.err());
    assertEquals(
        JsonParser.parseString(single.out()).getAsJsonObject().get("test_loglik").getAsDouble(),
        watched,
        2 * rows * Math.ulp(watched));
    CommandRun both =
        CommandRun.of(
            "spark",
            "train",
            "--train",
            train,
            "--method",
            "ar-softmax",
            "--epochs",
            "2",
            "--tol",
            "0.1",
            "--master",
            "local[2]");
    assertEquals(Failures.BAD_INPUT, both.status(), both.err());
    assertTrue(both.err().contains("runs only without --epochs"), both.err());
  }

  @Test
  void sparkTrainTakesTrainsStepSamplingAndPriorOptions() throws Exception {
    synthCb();
    String train = dir.resolve("train.txt").toString();
    List<Double> bounds = new ArrayList<>();
    for (String[] options :
        List.of(
            new String[] {"--learning-rate", "0.02"},
            new String[] {"--learning-rate", "0.2"},
            new String[] {"--learning-rate", "0.02", "--sampling", "shared"},
            new String[] {"--learning-rate", "0.02", "--prior-variance", "0.5"})) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "spark",
                  "train",
                  "--train",
                  train,
                  "--method",
                  "ar-softmax",
                  "--epochs",
                  "1",
                  "--rounds",
                  "2",
                  "--batch",
                  "20",
                  "--master",
                  "local[2]",
                  "--json"));
      args.addAll(List.of(options));
      CommandRun run = CommandRun.of(args.toArray(String[]::new));
      assertEquals(0, run.status(), run.err());
      JsonObject summary = JsonParser.parseString(run.out()).getAsJsonObject();
      bounds.add(summary.get("train_bound").getAsDouble());
      for (String field : new String[] {"watched", "watched_loglik", "watched_rows"}) {
        assertTrue(summary.get(field).isJsonNull(), "--epochs watches nothing: " + run.out());
      }
      boolean prior = List.of(options).contains("--prior-variance");
      assertEquals(prior ? 0.5 : 0, summary.get("prior_variance").getAsDouble(), run.out());
      assertEquals(prior, summary.get("prior_reason").getAsString().equals("given"), run.out());
    }
    assertEquals(4, new java.util.HashSet<>(bounds).size(), bounds.toString());
    CommandRun refused =
        CommandRun.of("spark", "train", "--train", train, "--method", "nce", "--step", "adaptive");
    assertEquals(Failures.BAD_INPUT, refused.status(), refused.err());
    assertTrue(refused.err().contains("nce runs plain SGD (step SGD)"), refused.err());
  }

  @Test
  void aBadLineIsOneLineNamingFileAndLine() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.txt"), "2 3 2\n0 1:1\n1 2:x\n");
    CommandRun run =
        CommandRun.of(
            "spark", "cavi", "--train", bad.toString(), "--link", "probit", "--master", "local[2]");
    assertEquals(Failures.BAD_INPUT, run.status());
    assertEquals(
        "largecat spark cavi: " + bad + ":3: feature value 'x' is not a number\n",
        run.err()
                .replace(System.lineSeparator(), "\n")
                .lines()
                .filter(l -> l.startsWith("largecat"))
                .findFirst()
                .orElse("")
            + "\n");
  }

  @Test
  void aBadSparkSettingIsOneLineNamingIt() throws Exception {
    CommandRun run = CommandRun.of("spark", "kernels", "--master", "nowhere://x");
    assertEquals(Failures.BAD_INPUT, run.status());
    assertTrue(
        run.err()
            .startsWith(
                "largecat spark kernels: cannot start Spark with master nowhere://x: Could not"
                    + " parse Master URL"),
        run.err());
  }

  private void synthCb() throws Exception {
    CommandRun r =
        CommandRun.of(
            "data",
            "synth",
            "cb",
            "--classes",
            "4",
            "--covariates",
            "5",
            "--rows",
            "600",
            "--sigma-high",
            "2",
            "--seed",
            "4",
            "--out",
            dir.resolve("train.txt").toString(),
            "--test-out",
            dir.resolve("test.txt").toString());
    assertEquals(0, r.status(), r.err());
  }

  private static List<Double> numbers(Pattern pattern, String text) {
    List<Double> found = new ArrayList<>();
    for (Matcher m = pattern.matcher(text); m.find(); ) {
      found.add(Double.parseDouble(m.group(1)));
    }
    return found;
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
