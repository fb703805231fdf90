package org.largecat.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * What the documentation check finds wrong in one Markdown file: a relative link whose file (or
 * heading) is not there, and a {@code largecat} command in a code block that the command line would
 * refuse. Commands are parsed by picocli as a run would, without running them.
 */
final class DocsCheck {
  /** An inline link or image: the target between the parentheses, up to a title or the end. */
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

  /** An explicit anchor, as references.md marks its entries. */
  private static final Pattern ANCHOR = Pattern.compile("<a id=\"([^\"]+)\"></a>");

  /** A command line of a code block: optional variable assignments, then the launcher. */
  private static final Pattern COMMAND =
      Pattern.compile("^(?:[A-Z_][A-Z0-9_]*=\\S*\\s+)*(?:\\./)?largecat\\s+(.*)$");

  private DocsCheck() {}

  /** The relative links of {@code file} that resolve to no file, or to no heading in it. */
  static List<String> brokenLinks(Path file) throws IOException {
    List<String> broken = new ArrayList<>();
    List<String> lines = Files.readAllLines(file);
    boolean inCode = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.stripLeading().startsWith("```")) {
        inCode = !inCode;
        continue;
      }
      if (inCode) {
        continue;
      }
      Matcher m = LINK.matcher(withoutCodeSpans(line));
      while (m.find()) {
        String target = m.group(1);
        String problem = problem(file, target);
        if (problem != null) {
          broken.add(file + ":" + (i + 1) + ": " + target + ": " + problem);
        }
      }
    }
    return broken;
  }

  /** Why {@code target}, linked from {@code file}, does not resolve; null when it does. */
  private static String problem(Path file, String target) throws IOException {
    if (target.contains("://") || target.startsWith("mailto:")) {
      return null;
    }
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path resolved = path.isEmpty() ? file : file.toAbsolutePath().getParent().resolve(path);
    if (!Files.exists(resolved)) {
      return "no such file";
    }
    if (anchor != null && !anchors(resolved).contains(anchor)) {
      return "no heading or anchor '" + anchor + "' in " + resolved.getFileName();
    }
    return null;
  }

  /** The anchors a Markdown file offers: GitHub's heading identifiers and explicit ids. */
  static Set<String> anchors(Path markdown) throws IOException {
    Set<String> anchors = new HashSet<>();
    boolean inCode = false;
    for (String line : Files.readAllLines(markdown)) {
      if (line.stripLeading().startsWith("```")) {
        inCode = !inCode;
      } else if (!inCode && line.startsWith("#")) {
        String heading = line.replaceFirst("^#+\\s*", "").strip();
        anchors.add(
            heading
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-'));
      }
      Matcher m = ANCHOR.matcher(line);
      while (m.find()) {
        anchors.add(m.group(1));
      }
    }
    return anchors;
  }

  private static String withoutCodeSpans(String line) {
    return line.replaceAll("`[^`]*`", "``");
  }

  /**
   * The {@code largecat} commands in {@code file}'s code blocks that do not parse, each with
   * picocli's reason. A command may go on over lines ending in a backslash; a {@code #} comment
   * after it is left out.
   */
  static List<String> unparsedCommands(Path file) throws IOException {
    List<String> failures = new ArrayList<>();
    List<String> lines = Files.readAllLines(file);
    boolean inCode = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.stripLeading().startsWith("```")) {
        inCode = !inCode;
        continue;
      }
      if (!inCode) {
        continue;
      }
      int first = i;
      StringBuilder command = new StringBuilder(line);
      while (command.toString().endsWith("\\") && i + 1 < lines.size()) {
        command.setLength(command.length() - 1);
        command.append(' ').append(lines.get(++i).strip());
      }
      Matcher m = COMMAND.matcher(command.toString().strip());
      if (m.matches()) {
        String problem = parseProblem(shellWords(m.group(1)));
        if (problem != null) {
          failures.add(file + ":" + (first + 1) + ": largecat " + m.group(1) + ": " + problem);
        }
      }
    }
    return failures;
  }

  /** Why the command line would refuse {@code args}; null when it parses. */
  static String parseProblem(List<String> args) {
    String[] array = args.toArray(String[]::new);
    ByteArrayOutputStream ignored = new ByteArrayOutputStream();
    PrintStream sink = new PrintStream(ignored, true, StandardCharsets.UTF_8);
    Largecat.Streams streams =
        new Largecat.Streams(new ByteArrayInputStream(new byte[0]), sink, sink);
    try {
      Largecat.commandLine(streams, array).parseArgs(array);
      return null;
    } catch (CommandLine.ParameterException e) {
      return e.getMessage();
    }
  }

  /** Splits a shell command's arguments as a POSIX shell would, and drops a trailing comment. */
  static List<String> shellWords(String text) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        continue;
      }
      if (c == '#' && word == null) {
        break;
      }
      word = word == null ? new StringBuilder() : word;
      if (c == '\'' || c == '"') {
        int end = text.indexOf(c, i + 1);
        word.append(text, i + 1, end);
        i = end;
      } else if (c == '\\' && i + 1 < text.length()) {
        word.append(text.charAt(++i));
      } else {
        word.append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }
}
