package org.largecat.synth;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.largecat.AtomicWrite;
import org.largecat.IoErrors;
import org.largecat.MemoryBudget;
import org.largecat.data.BoundedLineReader;
import org.largecat.data.DataFileException;

/**
 * Survey answers: U users each choose one of K choices for each of I categorical items. The text
 * format is one user per line, I integer choices (0-based, each < K) separated by blanks; blank
 * lines are not allowed. Stored row-major: {@code choice(u, i) = choices[u * items + i]}.
 */
public final class ChoiceData {
  private final int users;
  private final int items;
  private final int choiceCount;
  private final int[] choices;

  /** Wraps {@code choices} (U x I row-major, each in [0, choiceCount)) after checking it. */
  public ChoiceData(int users, int items, int choiceCount, int[] choices) {
    if (users < 1 || items < 1 || choiceCount < 2) {
      throw new IllegalArgumentException(
          "ChoiceData: need users >= 1, items >= 1, choices >= 2; got users="
              + users
              + " items="
              + items
              + " choices="
              + choiceCount);
    }
    if (choices.length != (long) users * items) {
      throw new IllegalArgumentException(
          "ChoiceData: choices has "
              + choices.length
              + " entries, users x items = "
              + (long) users * items);
    }
    for (int j = 0; j < choices.length; j++) {
      if (choices[j] < 0 || choices[j] >= choiceCount) {
        throw new IllegalArgumentException(
            "ChoiceData: user "
                + j / items
                + " item "
                + j % items
                + " has choice "
                + choices[j]
                + ", outside [0, "
                + choiceCount
                + ")");
      }
    }
    this.users = users;
    this.items = items;
    this.choiceCount = choiceCount;
    this.choices = choices;
  }

  public int users() {
    return users;
  }

  public int items() {
    return items;
  }

  /** K, the number of choices every item offers. */
  public int choiceCount() {
    return choiceCount;
  }

  public int choice(int user, int item) {
    return choices[user * items + item];
  }

  /**
   * Reads the text format. K is {@code declaredChoices} when positive (a choice >= K is then an
   * error naming its line), else one more than the largest choice seen (at least 2).
   *
   * @throws IllegalArgumentException naming the file, the line and the reason for any malformed
   *     line
   * @throws IOException naming the file when it cannot be read, is not UTF-8 text or has a line
   *     longer than {@link BoundedLineReader#MAX_LINE}
   */
  public static ChoiceData read(Path file, int declaredChoices) throws IOException {
    if (declaredChoices == 1) {
      throw new IllegalArgumentException(
          file + ": K = 1 choice declared, but every item needs at least 2 choices");
    }
    IntArray values = new IntArray();
    int items = -1;
    int users = 0;
    int largest = 0;
    BoundedLineReader reader = BoundedLineReader.open(file);
    int lineNumber = 0;
    try {
      String line;
      while ((line = reader.readLine()) != null) {
        lineNumber++;
        String trimmed = line.strip();
        if (trimmed.isEmpty()) {
          throw malformed(
              file,
              lineNumber,
              "empty line (one user per line, "
                  + (items < 0 ? "I" : items)
                  + " choices separated by blanks)");
        }
        String[] fields = trimmed.split("\\s+");
        if (items < 0) {
          items = fields.length;
        } else if (fields.length != items) {
          throw malformed(
              file, lineNumber, "has " + fields.length + " choices, the first line has " + items);
        }
        for (int i = 0; i < fields.length; i++) {
          int value;
          try {
            value = Integer.parseInt(fields[i]);
          } catch (NumberFormatException e) {
            throw malformed(
                file, lineNumber, "item " + i + ": '" + fields[i] + "' is not an integer choice");
          }
          if (value < 0) {
            throw malformed(
                file,
                lineNumber,
                "item " + i + ": choice " + value + " is negative (choices are 0-based)");
          }
          if (value >= MemoryBudget.MAX_ARRAY_LENGTH) {
            throw malformed(
                file,
                lineNumber,
                "item " + i + ": choice " + value + " is too large (K choices must fit an array)");
          }
          if (declaredChoices > 0 && value >= declaredChoices) {
            throw malformed(
                file, lineNumber, "item " + i + ": choice " + value + " >= K = " + declaredChoices);
          }
          if (values.size == MemoryBudget.MAX_ARRAY_LENGTH) {
            throw malformed(
                file, lineNumber, "more choices in the file than a Java array holds (U x I)");
          }
          largest = Math.max(largest, value);
          values.add(value);
        }
        users++;
      }
    } catch (DataFileException e) {
      throw e;
    } catch (IOException e) {
      throw IoErrors.explain(file, "cannot read line " + (lineNumber + 1), e);
    } finally {
      reader.close();
    }
    if (users == 0) {
      throw new IllegalArgumentException(
          file + ": empty file (one user per line, I choices separated by blanks)");
    }
    int choiceCount = declaredChoices > 0 ? declaredChoices : Math.max(2, largest + 1);
    return new ChoiceData(users, items, choiceCount, values.toArray());
  }

  /** Writes the text format, one user per line. */
  public void write(Path file) throws IOException {
    AtomicWrite.write(
        file,
        out -> writeTo(new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8))));
  }

  private void writeTo(BufferedWriter writer) throws IOException {
    StringBuilder line = new StringBuilder(items * 3);
    for (int u = 0; u < users; u++) {
      line.setLength(0);
      for (int i = 0; i < items; i++) {
        if (i > 0) {
          line.append(' ');
        }
        line.append(choices[u * items + i]);
      }
      line.append('\n');
      writer.append(line);
    }
    writer.flush();
  }

  private static IllegalArgumentException malformed(Path file, int line, String reason) {
    return new IllegalArgumentException(file + ":" + line + ": " + reason);
  }

  /** A growable int array, so reading 10^7 choices boxes nothing. */
  private static final class IntArray {
    private int[] data = new int[1024];
    private int size;

    void add(int value) {
      if (size == data.length) {
        data =
            java.util.Arrays.copyOf(
                data, (int) Math.min(MemoryBudget.MAX_ARRAY_LENGTH, 2L * data.length));
      }
      data[size++] = value;
    }

    int[] toArray() {
      return java.util.Arrays.copyOf(data, size);
    }
  }
}
