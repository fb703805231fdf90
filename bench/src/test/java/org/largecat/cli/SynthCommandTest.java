package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SynthCommandTest {
  @TempDir
  Path dir;


  private static CommandRun run(String... args) throws Exception {
    return CommandRun.of(args);
  }

  @Test
  void simulateFitGenerateReportEndToEnd() throws Exception {
    String real = dir.resolve("real.txt").toString();
    String truth = dir.resolve("truth.bin").toString();
    String model = dir.resolve("model.bin").toString();
    String synthetic = dir.resolve("synthetic.txt").toString();
    CommandRun simulate = run("synth", "simulate", "--users", "300", "--items", "5", "--choices", "3", "--latent", "2",
        "--seed", "4", "--out", real, "--truth", truth);
    assertEquals(0, simulate.status(), simulate.err());
    CommandRun fit = run("synth", "fit", "--data", real, "--latent", "2", "--model", model, "--iterations", "3",
        "--threads", "2");
    assertEquals(0, fit.status(), fit.err());
    assertTrue(fit.out().contains("bound decreased 0 times"), fit.out());
    CommandRun generate = run("synth", "generate", "--model", model, "--users", "200", "--out", synthetic);
    assertEquals(0, generate.status(), generate.err());
    assertEquals(200, Files.readAllLines(Path.of(synthetic)).size());
    CommandRun report = run("synth", "report", "--real", real, "--synthetic", synthetic, "--json", "--truth", truth,
        "--model", model);
    assertEquals(0, report.status(), report.err());
    assertTrue(report.out().startsWith("{\"realUsers\":300,\"syntheticUsers\":200,\"items\":5,"), report.out());
    assertTrue(report.out().contains("\"sigmaRecovery\":{\"traceRatio\":"), report.out());
  }

  @Test
  void badInputIsAnErrorNamingTheFileAndLine() throws Exception {
    Path ragged = dir.resolve("ragged.txt");
    Files.writeString(ragged, "0 1 2\n1 0\n");
    CommandRun r = run("synth", "fit", "--data", ragged.toString(), "--latent", "2", "--model",
        dir.resolve("m.bin").toString());
    assertEquals(2, r.status());
    assertTrue(r.err().contains(ragged + ":2: has 2 choices, the first line has 3"), r.err());

    Path tooLarge = dir.resolve("large.txt");
    Files.writeString(tooLarge, "0 1\n1 5\n");
    r = run("synth", "fit", "--data", tooLarge.toString(), "--choices", "3", "--latent", "2", "--model",
        dir.resolve("m.bin").toString());
    assertEquals(2, r.status());
    assertTrue(r.err().contains(tooLarge + ":2: item 1: choice 5 >= K = 3"), r.err());

    Path notAModel = dir.resolve("not-a-model.bin");
    Files.writeString(notAModel, "hello");
    r = run("synth", "generate", "--model", notAModel.toString(), "--users", "3", "--out",
        dir.resolve("o.txt").toString());
    assertEquals(2, r.status());
    assertTrue(r.err().contains(notAModel + ": truncated"), r.err());

    Path good = dir.resolve("good.txt");
    Files.writeString(good, "0 1\n1 0\n");
    r = run("synth", "fit", "--data", good.toString(), "--latent", "0", "--model", "x");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("--latent must be a positive integer, got '0'"), r.err());
    r = run("synth", "generate", "--users", "3");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("synth generate needs --model"), r.err());
  }
}
