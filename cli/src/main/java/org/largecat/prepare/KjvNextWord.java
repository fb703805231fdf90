package org.largecat.prepare;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;

/**
 * kjv-nextword: next-word prediction over the King James Bible, our real large-K set. The text is
 * what {@code bible -f Gen1:1-Rev22:21} prints (Debian's bible-kjv, over the data of
 * bible-kjv-text): one verse per line after its reference. A word is a maximal run of the letters
 * a-z after lower-casing (apostrophes and hyphens separate words: "Noah's" is "noah", "s"); the
 * verses are read as one stream. The vocabulary is every distinct word, numbered by decreasing
 * count (ties alphabetically), and is both the classes and the features. Example i is word i for i
 * >= W (so every example has W preceding words); its label is the word, its features the W
 * preceding words, the word d places back weighted 1/d; a word that occurs more than once in the
 * window keeps its nearest occurrence's weight. The last floor(N/10) examples by position are the
 * test set, so no test word lies inside the training text.
 */
public final class KjvNextWord {
  public static final DebianPackage PACKAGE = new DebianPackage("bible-kjv");

  /** The package bible-kjv reads its text from; recorded for its version. */
  static final DebianPackage TEXT_PACKAGE = new DebianPackage("bible-kjv-text");

  /** W, the number of preceding words an example sees. */
  static final int WINDOW = 3;

  private static final Pattern REFERENCE = Pattern.compile("[1-3]?[A-Za-z]+\\d+:\\d+");
  private static final String WHOLE_TEXT = "Gen1:1-Rev22:21";

  private KjvNextWord() {}

  /** Whether the {@code bible} command is on PATH. */
  public static boolean installed() {
    return DebianPackage.onPath("bible") != null;
  }

  /** Runs {@code bible} for the whole text and builds the set. */
  public static PreparedSet prepare() throws IOException {
    Path bible = DebianPackage.onPath("bible");
    if (bible == null) {
      throw PACKAGE.missing("the command 'bible' is not on PATH");
    }
    Process process =
        new ProcessBuilder(bible.toString(), "-f", WHOLE_TEXT)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    List<String> words;
    try (Reader out = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
      words = words(out);
    }
    try {
      if (process.waitFor() != 0) {
        throw new IOException(
            bible + " -f " + WHOLE_TEXT + " exited with status " + process.exitValue());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for " + bible, e);
    }
    String source =
        "Debian packages "
            + PACKAGE.name()
            + " "
            + PACKAGE.version()
            + " and "
            + TEXT_PACKAGE.name()
            + " "
            + TEXT_PACKAGE.version()
            + ": the output of '"
            + bible
            + " -f "
            + WHOLE_TEXT
            + "'";
    return build(words, WINDOW, source);
  }

  /**
   * The words of {@code bible -f} output: each line's leading verse reference is dropped, the rest
   * lower-cased and cut into maximal runs of a-z. A line that does not start with a reference is an
   * error.
   */
  static List<String> words(Reader bibleOutput) throws IOException {
    List<String> words = new ArrayList<>();
    BufferedReader lines = new BufferedReader(bibleOutput);
    String line;
    long number = 0;
    while ((line = lines.readLine()) != null) {
      number++;
      if (line.isBlank()) {
        continue;
      }
      int space = line.indexOf(' ');
      String reference = space < 0 ? line : line.substring(0, space);
      if (!REFERENCE.matcher(reference).matches()) {
        throw new IOException(
            "bible output line "
                + number
                + " does not start with a verse reference: '"
                + line
                + "'");
      }
      String text = line.substring(reference.length()).toLowerCase(Locale.ROOT);
      int start = -1;
      for (int i = 0; i <= text.length(); i++) {
        boolean letter = i < text.length() && text.charAt(i) >= 'a' && text.charAt(i) <= 'z';
        if (letter && start < 0) {
          start = i;
        } else if (!letter && start >= 0) {
          words.add(text.substring(start, i));
          start = -1;
        }
      }
    }
    return words;
  }

  /**
   * The next-word set of the class comment over {@code words}, with a window of {@code window}
   * words.
   */
  static PreparedSet build(List<String> words, int window, String source) {
    if (words.size() < window + 10) {
      throw new IllegalArgumentException(
          words.size()
              + " words are too few for a window of "
              + window
              + " and a test set of a tenth");
    }
    Map<String, Integer> counts = new HashMap<>();
    for (String w : words) {
      counts.merge(w, 1, Integer::sum);
    }
    List<String> vocabulary = new ArrayList<>(counts.keySet());
    vocabulary.sort(
        (a, b) ->
            counts.get(a).equals(counts.get(b)) ? a.compareTo(b) : counts.get(b) - counts.get(a));
    Map<String, Integer> ids = new HashMap<>();
    for (int k = 0; k < vocabulary.size(); k++) {
      ids.put(vocabulary.get(k), k);
    }
    int[] text = words.stream().mapToInt(ids::get).toArray();
    int rows = text.length - window;
    int[] labels = new int[rows];
    int[] indptr = new int[rows + 1];
    int[] indices = new int[rows * window];
    float[] values = new float[rows * window];
    long[] row = new long[window]; // (word id, distance) packed, to sort a row by word id
    for (int n = 0; n < rows; n++) {
      int position = n + window;
      labels[n] = text[position];
      int size = 0;
      for (int d = 1; d <= window; d++) {
        int word = text[position - d];
        boolean nearer = false;
        for (int i = 0; i < size; i++) {
          nearer |= (int) (row[i] >>> 32) == word;
        }
        if (!nearer) {
          row[size++] = (long) word << 32 | d;
        }
      }
      Arrays.sort(row, 0, size);
      int at = indptr[n];
      for (int i = 0; i < size; i++) {
        indices[at] = (int) (row[i] >>> 32);
        values[at++] = 1f / (int) row[i];
      }
      indptr[n + 1] = at;
    }
    int k = vocabulary.size();
    Dataset all =
        new Dataset(
            new SparseFeatures(
                rows,
                k,
                indptr,
                Arrays.copyOf(indices, indptr[rows]),
                Arrays.copyOf(values, indptr[rows])),
            labels,
            k);
    Split split = Split.tail(rows, rows / 10);
    return new PreparedSet(
        "kjv-nextword",
        split.trainOf(all),
        split.testOf(all),
        vocabulary,
        source,
        "the text is the "
            + words.size()
            + " words of the King James Bible in canonical order (Genesis 1:1 to"
            + " Revelation 22:21, verses read as one stream); a word is a maximal run of a-z after lower-casing"
            + " (apostrophes and hyphens separate words, verse references are dropped); the vocabulary (K = D = "
            + k
            + ") is every distinct word, ids by decreasing count, ties alphabetically (classes.txt); example i"
            + " is word i for i >= W = "
            + window
            + " (the first "
            + window
            + " words are context only), its label"
            + " is the word's id, its features the W preceding words, feature j = 1/d when word j occurs d places"
            + " back (the nearest occurrence when it occurs more than once), so each row has at most "
            + window
            + " nonzeros valued 1, 1/2, 1/3",
        "by position, no shuffling: the first N - floor(N/10) examples train, the last floor(N/10) test"
            + " (the test examples are the end of the text; the first ones' contexts are the last training"
            + " words); words that occur only in the test part are classes with no training example");
  }
}
