package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation check of the build: every relative link in README.md and docs/ resolves, and
 * every {@code largecat} command in their code blocks parses with today's options.
 */
class DocsCheckTest {
  /** The checkout: the build runs this module's tests in {@code cli/}. */
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static List<Path> documents() throws IOException {
    List<Path> documents = new ArrayList<>();
    documents.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    return documents;
  }

  @Test
  void everyRelativeLinkResolves() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path document : documents()) {
      broken.addAll(DocsCheck.brokenLinks(document));
    }
    assertEquals(List.of(), broken, "links that resolve to nothing");
  }

  @Test
  void everyCommandInACodeBlockParses() throws IOException {
    List<String> failing = new ArrayList<>();
    for (Path document : documents()) {
      failing.addAll(DocsCheck.unparsedCommands(document));
    }
    assertEquals(List.of(), failing, "commands the command line refuses");
  }

  @Test
  void aLinkToAMissingFileOrHeadingIsReported(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("there.md"), "# A heading: `--rank r`\n");
    Path doc = dir.resolve("doc.md");
    Files.writeString(
        doc,
        "[ok](there.md) [ok](there.md#a-heading---rank-r) [web](https://example.org/x)\n"
            + "[gone](missing.md) [no heading](there.md#elsewhere)\n"
            + "```\n[in code](not-checked.md)\n```\n");
    List<String> broken = DocsCheck.brokenLinks(doc);
    assertEquals(2, broken.size(), broken.toString());
    assertTrue(broken.get(0).contains("missing.md: no such file"), broken.get(0));
    assertTrue(broken.get(1).contains("no heading or anchor 'elsewhere'"), broken.get(1));
  }

  @Test
  void aStaleOptionOrValueIsReported(@TempDir Path dir) throws IOException {
    Path doc = dir.resolve("doc.md");
    Files.writeString(
        doc,
        "```sh\n"
            + "./largecat train --train t.txt --method ar-softmax   # a comment --no-such\n"
            + "LARGECAT_BACKEND=scalar ./largecat train --train t.txt --no-such-option 3\n"
            + "./largecat train --train t.txt \\\n  --method no-such-method\n"
            + "./largecat evaluate --test t.txt\n"
            + "```\n"
            + "./largecat train --outside-a-code-block\n");
    List<String> failing = DocsCheck.unparsedCommands(doc);
    assertEquals(3, failing.size(), failing.toString());
    assertTrue(failing.get(0).contains(":3: ") && failing.get(0).contains("--no-such-option"));
    assertTrue(failing.get(1).contains(":4: ") && failing.get(1).contains("no-such-method"));
    assertTrue(failing.get(2).contains("--model"), failing.get(2));
  }

  @Test
  void shellWordsAreSplitAsAShellWould() {
    assertEquals(
        List.of("spark", "cavi", "--master", "local[*]", "a b", "c\"d"),
        DocsCheck.shellWords("spark cavi --master 'local[*]' \"a b\" c\\\"d  # comment"));
  }
}
