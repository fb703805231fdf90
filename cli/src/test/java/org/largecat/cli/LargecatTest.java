package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * The command line itself: help everywhere, the version, and usage errors as one line with exit
 * status 2.
 */
class LargecatTest {

  /**
   * Every command and subcommand, found in the command tree, so that a new one is covered without
   * listing it.
   */
  @TestFactory
  Stream<DynamicTest> everyCommandAnswersHelp() {
    CommandLine root =
        Largecat.commandLine(
            new Largecat.Streams(
                InputStream.nullInputStream(),
                new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(OutputStream.nullOutputStream())));
    List<List<String>> paths = new ArrayList<>();
    collect(root, List.of(), paths);
    assertTrue(paths.size() > 20, paths.toString());
    return paths.stream()
        .flatMap(
            path ->
                Stream.of("--help", "-h")
                    .map(
                        help ->
                            DynamicTest.dynamicTest(
                                String.join(" ", path) + " " + help,
                                () -> {
                                  List<String> args = new ArrayList<>(path);
                                  args.add(help);
                                  CommandRun r = CommandRun.of(args.toArray(String[]::new));
                                  assertEquals(0, r.status(), r.err());
                                  assertTrue(
                                      r.out()
                                          .startsWith(
                                              "Usage: "
                                                  + String.join(
                                                      " ",
                                                      Stream.concat(
                                                              Stream.of("largecat"), path.stream())
                                                          .toList())),
                                      r.out());
                                  assertEquals("", r.err());
                                })));
  }

  private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
    paths.add(path);
    command
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              List<String> longer = new ArrayList<>(path);
              longer.add(name);
              collect(sub, longer, paths);
            });
  }

  @Test
  void aotTrainingNeedsAWritableDirectory() throws Exception {
    CommandRun r = CommandRun.of("aot-training", "/nonexistent/dir");
    assertEquals(2, r.status(), r.err());
    assertEquals("largecat aot-training: /nonexistent/dir: not a writable directory\n", r.err());
  }

  @Test
  void versionIsTheProjects() throws Exception {
    CommandRun r = CommandRun.of("--version");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().matches("largecat \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n"), r.out());
  }

  /** The error and at most a hint where to look, never the whole usage. */
  private static void assertUsageError(CommandRun r, String... expected) {
    assertEquals(2, r.status(), r.err());
    List<String> lines = r.err().lines().toList();
    assertTrue(lines.size() <= 2, r.err());
    for (String e : expected) {
      assertTrue(lines.getFirst().contains(e), "'" + e + "' missing from " + r.err());
    }
    assertEquals("", r.out());
  }

  @Test
  void anUnknownOptionIsNamed() throws Exception {
    assertUsageError(CommandRun.of("train", "--bogus"), "largecat train: ", "--bogus");
    assertUsageError(CommandRun.of("data", "synth", "softmax", "--out", "x", "--bogus"), "--bogus");
    assertUsageError(CommandRun.of("nonsense"), "nonsense");
  }

  @Test
  void aMissingRequiredOptionIsNamed() throws Exception {
    assertUsageError(CommandRun.of("cavi", "--link", "probit"), "largecat cavi: ", "--train");
    assertUsageError(CommandRun.of("evaluate", "--model", "m.bin"), "--test");
  }

  @Test
  void aRepeatedOptionIsRefused() throws Exception {
    assertUsageError(
        CommandRun.of("train", "--train", "a.txt", "--train", "b.txt", "--method", "ove"),
        "--train");
  }

  @Test
  void aValueOfTheWrongTypeOrOutOfRangeIsNamed() throws Exception {
    assertUsageError(
        CommandRun.of("train", "--train", "a.txt", "--method", "ove", "--batch", "many"),
        "--batch",
        "many");
    assertUsageError(
        CommandRun.of("train", "--train", "a.txt", "--method", "ove", "--prior-variance", "-1"),
        "--prior-variance",
        "-1 must be finite and >= 0");
    assertUsageError(
        CommandRun.of("bench", "compare", "a.json", "b.json", "--threshold", "0.9"), "--threshold");
  }

  @Test
  void noCommandIsAUsageError() throws Exception {
    assertUsageError(CommandRun.of(), "subcommand");
  }
}
