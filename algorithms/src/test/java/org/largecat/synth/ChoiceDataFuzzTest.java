package org.largecat.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzes {@link ChoiceData#read}: any bytes, with K declared or not, give survey data or an {@link
 * IllegalArgumentException} or {@link IOException} whose message starts with the file's name; data
 * that load are written back and read again unchanged.
 */
class ChoiceDataFuzzTest {
  private static final Path FILE;
  private static final Path COPY;

  static {
    try {
      FILE = Files.createTempFile("largecat-fuzz", ".txt");
      COPY = Files.createTempFile("largecat-fuzz", ".txt");
      FILE.toFile().deleteOnExit();
      COPY.toFile().deleteOnExit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest
  void readsOrNamesTheFile(FuzzedDataProvider input) throws IOException {
    int declared = input.consumeBoolean() ? input.consumeInt(-1, 40) : 0;
    Files.write(FILE, input.consumeRemainingAsBytes());
    ChoiceData data;
    try {
      data = ChoiceData.read(FILE, declared);
    } catch (IllegalArgumentException | IOException e) {
      assertTrue(e.getMessage().startsWith(FILE + ":"), () -> "the message names the file: " + e);
      return;
    }
    data.write(COPY);
    ChoiceData again = ChoiceData.read(COPY, data.choiceCount());
    assertEquals(data.users(), again.users());
    assertEquals(data.items(), again.items());
    assertEquals(data.choiceCount(), again.choiceCount());
    for (int u = 0; u < data.users(); u++) {
      for (int i = 0; i < data.items(); i++) {
        assertEquals(data.choice(u, i), again.choice(u, i));
      }
    }
  }
}
