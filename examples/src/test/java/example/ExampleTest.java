package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs the example program as a user would: it finishes with its "ok", and the defaults it fits
 * with reach a test log-likelihood within 1% of the generating model's, which it prints.
 */
class ExampleTest {
  private static final Pattern TEST_SCORES =
      Pattern.compile("test_loglik (-?[0-9.]+) truth (-?[0-9.]+) ");

  @Test
  void theExampleRunsToItsOk() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      Example.main(new String[0]);
    } finally {
      System.setOut(original);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    original.print(output);
    List<String> lines = output.lines().toList();
    assertEquals("ok", lines.isEmpty() ? "(no output)" : lines.getLast(), output);
    Matcher scores = TEST_SCORES.matcher(output);
    assertTrue(scores.find(), output);
    double fitted = Double.parseDouble(scores.group(1));
    double truth = Double.parseDouble(scores.group(2));
    assertTrue(fitted >= truth * 1.01, fitted + " against the generating model's " + truth);
  }
}
