package example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the example program as a user would and checks that it finishes with its "ok". */
class ExampleTest {

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
  }
}
