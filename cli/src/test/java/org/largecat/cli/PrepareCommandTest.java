package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code largecat data prepare}'s errors; the sets themselves are tested in org.largecat.prepare.
 */
class PrepareCommandTest {
  @TempDir Path dir;

  private static CommandRun largecat(String... args) throws Exception {
    return CommandRun.of(args);
  }

  @Test
  void aMissingSourceNamesThePackageAndItsInstallLine() throws Exception {
    CommandRun r =
        largecat(
            "data",
            "prepare",
            "fashion-mnist",
            "--source",
            dir.resolve("absent").toString(),
            "--out",
            dir.resolve("out").toString());
    assertEquals(2, r.status());
    assertTrue(
        r.err()
            .contains(
                "no train-images-idx3-ubyte or train-images-idx3-ubyte.gz in "
                    + dir.resolve("absent")),
        r.err());
    assertTrue(r.err().contains("apt-get install -y dataset-fashion-mnist"), r.err());
  }

  @Test
  void aCorruptIdxFileIsNamedWithTheReason() throws Exception {
    for (String name :
        new String[] {
          "train-images-idx3-ubyte",
          "train-labels-idx1-ubyte",
          "t10k-images-idx3-ubyte",
          "t10k-labels-idx1-ubyte"
        }) {
      Files.write(dir.resolve(name), new byte[] {0, 0, 8, 1, 0, 0, 0, 1, 0});
    }
    CommandRun r =
        largecat(
            "data",
            "prepare",
            "fashion-mnist",
            "--source",
            dir.toString(),
            "--out",
            dir.resolve("out").toString());
    assertEquals(2, r.status());
    assertTrue(
        r.err()
            .contains(
                dir.resolve("train-images-idx3-ubyte")
                    + ": magic number 0x00000801 is not 0x00000803"),
        r.err());
  }

  @Test
  void anUnknownSetOrOptionIsAUsageError() throws Exception {
    CommandRun r = largecat("data", "prepare", "mnist", "--out", dir.toString());
    assertEquals(2, r.status());
    assertTrue(
        r.err()
            .contains(
                "unknown set 'mnist' (fashion-mnist, kjv-nextword, glass, letter or detergent)"),
        r.err());
    r = largecat("data", "prepare", "letter", "--seed", "3", "--out", dir.toString());
    assertEquals(2, r.status());
    assertTrue(r.err().contains("data prepare: --seed does not apply to letter"), r.err());
  }

  @Test
  void theHelpListsTheSets() throws Exception {
    assertTrue(
        largecat("data", "prepare", "--help")
            .out()
            .contains("fashion-mnist|kjv-nextword|glass|letter|detergent"));
  }
}
