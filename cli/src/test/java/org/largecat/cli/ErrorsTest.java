package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.largecat.json.SnakeCaseJson;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ModelFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Issue 22's cases: nothing lost (outputs checked before the work, old files kept on a failure),
 * nothing silently wrong (options capped aloud, standard output errors are errors), and every error
 * one line with its exit status, a stack trace only with --debug.
 */
class ErrorsTest {
  @TempDir Path dir;

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  /** A small training set, K = 6, D = 4. */
  @BeforeEach
  void synth() throws Exception {
    CommandRun.smallTrainingSet(dir.resolve("train.txt"));
  }

  /** One line on standard error, starting with the command, and no stack trace. */
  private static void oneLine(CommandRun r, String command) {
    assertFalse(r.err().contains("\tat "), r.err());
    assertFalse(r.err().contains("Exception in thread"), r.err());
    String[] lines = r.err().strip().split("\n");
    String last = lines[lines.length - 1];
    assertTrue(last.startsWith("largecat " + command + ": "), r.err());
  }

  @Test
  void modelInAMissingDirectoryFailsBeforeTraining() throws Exception {
    String model = file("missing/m.bin");
    CommandRun r =
        CommandRun.of(
            "train", "--train", file("train.txt"), "--method", "ar-softmax", "--model", model);
    assertEquals(2, r.status(), r.err());
    assertEquals(
        "largecat train: "
            + model
            + ": cannot write: the directory "
            + dir.resolve("missing")
            + " does not exist; create it first\n",
        r.err());
  }

  @Test
  void outputsAreCheckedBeforeTheWork() throws Exception {
    String missing = file("missing/out.txt");
    for (String[] args :
        new String[][] {
          {"data", "synth", "softmax", "--rows", "10", "--out", missing},
          {"data", "synth", "ar-toy", "--rows", "10", "--classes", "3", "--out", missing},
          {
            "data",
            "synth",
            "cb",
            "--classes",
            "3",
            "--covariates",
            "2",
            "--rows",
            "10",
            "--sigma-high",
            "1",
            "--out",
            file("cb.txt"),
            "--truth-out",
            missing
          },
          {
            "synth",
            "simulate",
            "--users",
            "5",
            "--items",
            "2",
            "--choices",
            "3",
            "--latent",
            "2",
            "--out",
            file("sim.txt"),
            "--truth",
            missing
          },
        }) {
      CommandRun r = CommandRun.of(args);
      assertEquals(2, r.status(), String.join(" ", args) + ": " + r.err());
      assertTrue(r.err().contains(missing + ": cannot write: the directory"), r.err());
      assertEquals("", r.out(), String.join(" ", args));
    }
    assertFalse(Files.exists(dir.resolve("cb.txt")), "nothing written before the check");
    assertFalse(Files.exists(dir.resolve("sim.txt")), "nothing written before the check");
  }

  @Test
  void aDivergedRunLeavesTheOldModelAndSaysWhichStep() throws Exception {
    Path model = dir.resolve("m.bin");
    byte[] old = "an older model".getBytes(StandardCharsets.UTF_8);
    Files.write(model, old);
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ar-softmax",
            "--step",
            "sgd",
            "--learning-rate",
            "1e300",
            "--epochs",
            "3",
            "--model",
            model.toString());
    assertEquals(1, r.status(), r.err());
    oneLine(r, "train");
    assertTrue(r.err().contains("learning rate 1.00000e+300"), r.err());
    assertTrue(r.err().contains("give a smaller learning rate"), r.err());
    assertTrue(r.err().strip().endsWith("no model was written"), r.err());
    assertArrayEquals(old, Files.readAllBytes(model));
  }

  /** An output stream that fails as a full disk does, or with another reason. */
  private static final class FullDisk extends OutputStream {
    private final String reason;

    FullDisk() {
      this("No space left on device");
    }

    FullDisk(String reason) {
      this.reason = reason;
    }

    @Override
    public void write(int b) throws IOException {
      throw new IOException(reason);
    }
  }

  /** Standard output closed by its reader ({@code | head}): silent, with SIGPIPE's status. */
  @Test
  void aBrokenPipeEndsTheRunQuietly() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        Largecat.run(
            new String[] {"--version"},
            InputStream.nullInputStream(),
            new FullDisk("Broken pipe"),
            StandardCharsets.UTF_8,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(141, status);
    assertEquals("", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aStandardOutputWriteErrorFailsTheRun() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        Largecat.run(
            new String[] {"--version"},
            InputStream.nullInputStream(),
            new FullDisk(),
            StandardCharsets.UTF_8,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String message = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, status, message);
    assertTrue(
        message.endsWith("largecat: cannot write standard output: No space left on device\n"),
        message);
  }

  @Test
  void aStandardOutputPrintStreamInTroubleFailsTheRun() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        Largecat.run(
            new String[] {"--version"},
            InputStream.nullInputStream(),
            new PrintStream(new FullDisk(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String message = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, status, message);
    assertTrue(message.contains("largecat: cannot write standard output: "), message);
  }

  @Test
  void sampledBeyondKIsSaidOnceAndTheValueUsedPrinted() throws Exception {
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ar-softmax",
            "--sampled",
            "1000",
            "--iterations",
            "2",
            "--json");
    assertEquals(0, r.status(), r.err());
    String notice =
        "train: sampled = 1000 is more than the 5 classes besides the label (K = 6); using 5";
    assertEquals(r.err().indexOf(notice), r.err().lastIndexOf(notice), r.err());
    assertTrue(r.err().contains(notice), r.err());
    assertTrue(r.err().contains("|S| = 5"), r.err());
    assertEquals(5, SnakeCaseJson.parseObject(r.out()).get("sampled").getAsInt(), r.out());
  }

  @Test
  void sizesAMethodDoesNotTakeAreRefusedOrSaid() throws Exception {
    CommandRun r =
        CommandRun.of("train", "--train", file("train.txt"), "--method", "umax", "--batch", "10");
    assertEquals(2, r.status(), r.err());
    assertTrue(r.err().startsWith("largecat train: batch and sampled do not apply to umax"));
    r =
        CommandRun.of(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "exact-softmax-sgd",
            "--sampled",
            "3",
            "--iterations",
            "1",
            "--json");
    assertEquals(0, r.status(), r.err());
    assertTrue(
        r.err()
            .startsWith("train: sampled = 3 is ignored: exact-softmax-sgd sums over all 5 classes"),
        r.err());
    assertEquals(5, SnakeCaseJson.parseObject(r.out()).get("sampled").getAsInt(), r.out());
  }

  @Test
  void aRepeatedFlagIsAnError() throws Exception {
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            file("train.txt"),
            "--method",
            "ar-softmax",
            "--epochs",
            "1",
            "--epochs",
            "2");
    assertEquals(2, r.status(), r.err());
    assertTrue(r.err().contains("option '--epochs' (E) should be specified only once"), r.err());
  }

  static Stream<Arguments> notProbabilities() {
    return Stream.of(
        Arguments.of("0.5 0.6 -0.1", "probability 3 is -0.1; a probability is finite and >= 0"),
        Arguments.of("0.5 NaN 0.5", "probability 2 is NaN"),
        Arguments.of("0.5 0.25 0.2", "the probabilities sum to 0.95, not 1"));
  }

  @ParameterizedTest
  @MethodSource("notProbabilities")
  void caviTruthRowsMustBeProbabilityVectors(String row, String why) throws Exception {
    CommandRun synth =
        CommandRun.of(
            "data",
            "synth",
            "cb",
            "--classes",
            "3",
            "--covariates",
            "3",
            "--rows",
            "3",
            "--sigma-high",
            "1",
            "--out",
            file("cb.txt"));
    assertEquals(0, synth.status(), synth.err());
    Path truth = dir.resolve("truth.txt");
    Files.writeString(truth, "0.2 0.3 0.5\n" + row + "\n0 0 1\n");
    CommandRun r =
        CommandRun.of(
            "cavi", "--train", file("cb.txt"), "--link", "probit", "--truth", truth.toString());
    assertEquals(2, r.status(), r.err());
    oneLine(r, "cavi");
    assertTrue(r.err().contains(truth + ": line 2: " + why), r.err());
  }

  static Stream<Arguments> hugeShapes() {
    return Stream.of(
        Arguments.of(
            "data synth softmax",
            new String[] {"--rows", "100000", "--columns", "100000", "--classes", "10"},
            "the features, N × D = 100000 × 100000"),
        Arguments.of(
            "data synth softmax",
            new String[] {"--rows", "10", "--columns", "100000", "--classes", "100000"},
            "the weights, K × D = 100000 × 100000"),
        Arguments.of(
            "data synth cb",
            new String[] {
              "--classes", "100000", "--covariates", "100000", "--rows", "10", "--sigma-high", "1"
            },
            "the weights, (M + 1) × K = 100001 × 100000"),
        Arguments.of(
            "synth simulate",
            new String[] {
              "--users", "10", "--items", "1000", "--choices", "1000000", "--latent", "3"
            },
            "the embeddings, items × K × d = 1000 × 1000000 × 3"),
        Arguments.of(
            "synth simulate",
            new String[] {
              "--users", "100000", "--items", "100000", "--choices", "5", "--latent", "3"
            },
            "the answers, users × items = 100000 × 100000"));
  }

  static Stream<Arguments> oversizedDataFiles() {
    return Stream.of(
        Arguments.of(
            "4 460000 460000\n459999 459999:1\n1 2:1\n2 0:1\n3 1:1\n",
            "xc",
            "a model of K = 460000 classes and D = 460000 features"),
        Arguments.of(
            "4 3 2147483647\n300000000 1:1\n1 2:1\n2 0:1\n3 1:1\n",
            "xc",
            "a model of K = 2147483647 classes and D = 3 features"),
        Arguments.of(
            "0 1:1\n100000000 2:1\n",
            "libsvm",
            "the largest label, 100000000, makes K = 100000001 classes, but only 2 distinct labels"));
  }

  /**
   * Sizes that only a header or a label gives, not the rows: refused before the model is allocated,
   * in one line that gives the sizes (a 4-row file cannot make a run that needs gigabytes).
   */
  @ParameterizedTest
  @MethodSource("oversizedDataFiles")
  void aHeaderOrLabelBeyondTheHeapIsRefusedBeforeAllocating(String text, String format, String what)
      throws Exception {
    Path data = dir.resolve("huge.txt");
    Files.writeString(data, text);
    CommandRun r =
        CommandRun.of(
            "train",
            "--train",
            data.toString(),
            "--method",
            "ove",
            "--format",
            format,
            "--epochs",
            "1");
    assertEquals(2, r.status(), r.err());
    oneLine(r, "train");
    assertTrue(r.err().contains(what), r.err());
  }

  @ParameterizedTest
  @MethodSource("hugeShapes")
  void hugeShapesAreOneLine(String command, String[] shape, String what) throws Exception {
    String[] args =
        Stream.concat(
                Stream.of(command.split(" ")),
                Stream.concat(Stream.of(shape), Stream.of("--out", file("out.txt"))))
            .toArray(String[]::new);
    CommandRun r = CommandRun.of(args);
    assertEquals(2, r.status(), r.err());
    oneLine(r, command);
    assertEquals(1, r.err().strip().split("\n").length, r.err());
    assertTrue(r.err().contains(what), r.err());
    assertTrue(r.err().contains("use a smaller shape"), r.err());
    assertFalse(Files.exists(dir.resolve("out.txt")));
  }

  @Test
  void synthFitOnAHugeLatentDimensionIsOneLine() throws Exception {
    CommandRun.smallChoiceData(dir.resolve("answers.txt"), 20, 2);
    CommandRun r =
        CommandRun.of(
            "synth",
            "fit",
            "--data",
            file("answers.txt"),
            "--latent",
            "100000",
            "--model",
            file("fit.bin"));
    assertEquals(2, r.status(), r.err());
    oneLine(r, "synth fit");
    assertTrue(r.err().contains("users × d × d = 20 × 100000 × 100000"), r.err());
  }

  @Test
  void extremeLogisticUtilitiesNameTheExample() throws Exception {
    Path model = dir.resolve("logistic.bin");
    ModelFile.write(
        new LinearModel(Link.LOGISTIC, 3, 1, new float[] {1e5f, 0, -1e5f}, new double[3]), model);
    Path test = dir.resolve("one.txt");
    Files.writeString(test, "2 1 3\n0 0:0.001\n1 0:1\n");
    CommandRun r =
        CommandRun.of("evaluate", "--model", model.toString(), "--test", test.toString());
    assertEquals(1, r.status(), r.err());
    oneLine(r, "evaluate");
    assertTrue(
        r.err().contains("example 2: the logistic probabilities cannot be computed"), r.err());
    assertTrue(r.err().contains("retrain with a smaller --learning-rate"), r.err());
  }

  /** A command that fails as a bug would. */
  @Command(name = "fail")
  static final class Failing implements Callable<Integer> {
    @Override
    public Integer call() {
      throw new IllegalStateException("an invariant broke");
    }
  }

  private static CommandRun withFailing(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        Largecat.run(
            streams -> {
              CommandLine root = Largecat.commandLine(streams);
              root.addSubcommand(new CommandLine(new Failing()));
              // The writers are handed down to the subcommands there are when they are set.
              return root.setOut(root.getOut()).setErr(root.getErr());
            },
            args,
            InputStream.nullInputStream(),
            out,
            StandardCharsets.UTF_8,
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CommandRun(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aBadBackendFromTheKernelsInitializerOnAnotherThreadIsOneLineOfBadInput() {
    StringWriter err = new StringWriter();
    int status =
        Failures.report(
            new CompletionException(
                new ExceptionInInitializerError(
                    new IllegalArgumentException("unknown largecat backend 'gpu'"))),
            "largecat train",
            new PrintWriter(err),
            false);
    assertEquals(Failures.BAD_INPUT, status);
    assertEquals(
        "largecat train: unknown largecat backend 'gpu'" + System.lineSeparator(), err.toString());
  }

  @Test
  void anInternalErrorIsOneLineWithoutDebug() {
    CommandRun r = withFailing("fail");
    assertEquals(1, r.status(), r.err());
    assertEquals(
        "largecat fail: internal error: java.lang.IllegalStateException: an invariant broke;"
            + " run with --debug for the stack trace\n",
        r.err());
  }

  @Test
  void debugPrintsTheStackTraceOnEveryCommand() throws Exception {
    for (String[] args : new String[][] {{"fail", "--debug"}, {"--debug", "fail"}}) {
      CommandRun r = withFailing(args);
      assertEquals(1, r.status(), r.err());
      assertTrue(r.err().contains("\tat org.largecat.cli.ErrorsTest$Failing.call"), r.err());
      assertTrue(
          r.err()
              .strip()
              .endsWith(
                  "largecat fail: internal error: java.lang.IllegalStateException: an invariant"
                      + " broke"),
          r.err());
    }
    CommandRun r =
        CommandRun.of(
            "data",
            "synth",
            "softmax",
            "--rows",
            "100000",
            "--columns",
            "100000",
            "--out",
            file("x.txt"),
            "--debug");
    assertEquals(2, r.status(), r.err());
    assertTrue(r.err().contains("\tat org.largecat.MemoryBudget"), r.err());
  }
}
