package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output never destroys an input or another output of the same command, and never replaces a
 * special file: each such run is refused before its work starts, with one line that names both
 * options, and every file is left byte for byte as it was.
 */
class OutputClashTest {
  @TempDir Path dir;

  private Path train;

  private String file(String name) {
    return dir.resolve(name).toString();
  }

  /** A small training set, K = 6, D = 4, and its generating model beside it. */
  @BeforeEach
  void synth() throws Exception {
    train = dir.resolve("train.txt");
    CommandRun.smallTrainingSet(train);
  }

  /**
   * Runs {@code args}, expecting a refusal (exit 2, one line naming {@code says}) and no change.
   */
  private void refused(String says, String... args) throws Exception {
    List<Path> files;
    try (var listed = Files.list(dir)) {
      files = listed.sorted().toList();
    }
    List<byte[]> before = new ArrayList<>();
    List<Object> keys = new ArrayList<>();
    for (Path f : files) {
      BasicFileAttributes a =
          Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      keys.add(a.fileKey());
      before.add(a.isRegularFile() ? Files.readAllBytes(f) : new byte[0]);
    }
    CommandRun r = CommandRun.of(args);
    assertEquals(2, r.status(), r.err());
    String[] lines = r.err().strip().split("\n");
    assertEquals(1, lines.length, r.err());
    assertTrue(lines[0].contains(says), r.err());
    assertFalse(r.err().contains("\tat "), r.err());
    List<Path> after;
    try (var listed = Files.list(dir)) {
      after = listed.sorted().toList();
    }
    assertEquals(files, after, "no file created or removed");
    for (int i = 0; i < files.size(); i++) {
      BasicFileAttributes a =
          Files.readAttributes(files.get(i), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      assertEquals(keys.get(i), a.fileKey(), files.get(i) + " replaced");
      if (a.isRegularFile()) {
        assertArrayEquals(before.get(i), Files.readAllBytes(files.get(i)), files.get(i) + "");
      }
    }
  }

  @Test
  void theModelOnTheTrainingSetIsRefused() throws Exception {
    refused(
        "--model " + train + " is the same file as --train",
        "train",
        "--train",
        train.toString(),
        "--method",
        "ar-softmax",
        "--epochs",
        "1",
        "--model",
        train.toString());
  }

  @Test
  void theModelOnTheTestSetIsRefused() throws Exception {
    Path test = Files.copy(train, dir.resolve("test.txt"));
    refused(
        "is the same file as --test",
        "train",
        "--train",
        train.toString(),
        "--test",
        test.toString(),
        "--method",
        "ar-softmax",
        "--epochs",
        "1",
        "--model",
        dir.resolve(".").resolve("test.txt").toString());
  }

  @Test
  void theModelOnASymbolicLinkToTheTrainingSetIsRefused() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("link.txt"), train);
    refused(
        "is the same file as --train",
        "train",
        "--train",
        train.toString(),
        "--method",
        "ar-softmax",
        "--epochs",
        "1",
        "--model",
        link.toString());
  }

  @Test
  void theModelOnAHardLinkOfTheTrainingSetIsRefused() throws Exception {
    Path link = Files.createLink(dir.resolve("hard.txt"), train);
    refused(
        "is the same file as --train",
        "train",
        "--train",
        train.toString(),
        "--method",
        "ar-softmax",
        "--epochs",
        "1",
        "--model",
        link.toString());
  }

  @Test
  void theModelOnTheInitialModelIsAllowed() throws Exception {
    // Training on from a model and replacing it is what --init is for.
    CommandRun first =
        CommandRun.of(
            "train",
            "--train",
            train.toString(),
            "--method",
            "ar-softmax",
            "--epochs",
            "1",
            "--model",
            file("m.bin"));
    assertEquals(0, first.status(), first.err());
    CommandRun again =
        CommandRun.of(
            "train",
            "--train",
            train.toString(),
            "--method",
            "ar-softmax",
            "--epochs",
            "1",
            "--init",
            file("m.bin"),
            "--model",
            file("m.bin"));
    assertEquals(0, again.status(), again.err());
  }

  @Test
  void theModelOnAFifoIsRefused() throws Exception {
    Path fifo = dir.resolve("fifo");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, p.waitFor());
    refused(
        "is not a regular file",
        "train",
        "--train",
        train.toString(),
        "--method",
        "ar-softmax",
        "--epochs",
        "1",
        "--model",
        fifo.toString());
    assertTrue(Files.readAttributes(fifo, BasicFileAttributes.class).isOther(), "still a FIFO");
  }

  @Test
  void theModelOnADeviceNodeIsRefused() throws Exception {
    // A node of /dev/null's device (char 1:3) in the temporary directory, which only root makes.
    Path device = dir.resolve("null");
    Process p =
        new ProcessBuilder("mknod", device.toString(), "c", "1", "3")
            .redirectErrorStream(true)
            .start();
    p.getInputStream().readAllBytes();
    assumeTrue(p.waitFor() == 0, "making a device node needs root");
    refused(
        "is not a regular file",
        "train",
        "--train",
        train.toString(),
        "--method",
        "ar-softmax",
        "--epochs",
        "1",
        "--model",
        device.toString());
    assertTrue(Files.readAttributes(device, BasicFileAttributes.class).isOther(), "still a device");
  }

  @Test
  void anOutputOnASocketIsRefused() throws Exception {
    Path socket = dir.resolve("socket");
    try (ServerSocketChannel server =
        ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      refused(
          "is not a regular file",
          "synth",
          "simulate",
          "--users",
          "20",
          "--items",
          "3",
          "--choices",
          "3",
          "--latent",
          "1",
          "--out",
          socket.toString());
    }
  }

  @Test
  void theSynthModelOnItsDataIsRefused() throws Exception {
    Path data = dir.resolve("answers.txt");
    CommandRun.smallChoiceData(data, 40, 1);
    refused(
        "--model " + data + " is the same file as --data",
        "synth",
        "fit",
        "--data",
        data.toString(),
        "--latent",
        "1",
        "--iterations",
        "1",
        "--model",
        data.toString());
  }

  @Test
  void synthUsersOverTheirModelAreRefused() throws Exception {
    Path truth = dir.resolve("s.bin");
    CommandRun.smallChoiceData(dir.resolve("answers.txt"), 40, 1, "--truth", truth.toString());
    refused(
        "--out " + truth + " is the same file as --model",
        "synth",
        "generate",
        "--model",
        truth.toString(),
        "--users",
        "10",
        "--out",
        truth.toString());
  }

  @Test
  void simulatedAnswersOverTheirTruthAreRefused() throws Exception {
    refused(
        "is the same file as --out",
        "synth",
        "simulate",
        "--users",
        "20",
        "--items",
        "3",
        "--choices",
        "3",
        "--latent",
        "1",
        "--out",
        file("x"),
        "--truth",
        file("x"));
  }

  @Test
  void aTestSetOverItsTrainingSetIsRefused() throws Exception {
    refused(
        "--test-out " + file("o.txt") + " is the same file as --out",
        "data",
        "synth",
        "softmax",
        "--rows",
        "20",
        "--test-rows",
        "5",
        "--out",
        file("o.txt"),
        "--test-out",
        file("o.txt"));
  }

  @Test
  void aTestSetOverTheGeneratingModelIsRefused() throws Exception {
    refused(
        "is the same file as the generating model",
        "data",
        "synth",
        "softmax",
        "--rows",
        "20",
        "--test-rows",
        "5",
        "--out",
        file("o.txt"),
        "--test-out",
        file("o.txt.truth"));
  }

  @Test
  void cbTruthOverItsTrainingSetIsRefused() throws Exception {
    refused(
        "is the same file as --out",
        "data",
        "synth",
        "cb",
        "--classes",
        "3",
        "--covariates",
        "2",
        "--rows",
        "50",
        "--sigma-high",
        "1",
        "--out",
        file("x"),
        "--truth-out",
        file("x"));
  }

  @Test
  void sparkTrainsModelOnItsTrainingSetIsRefused() throws Exception {
    refused(
        "is the same file as --train",
        "spark",
        "train",
        "--train",
        train.toString(),
        "--method",
        "nce",
        "--epochs",
        "1",
        "--model",
        train.toString());
  }
}
