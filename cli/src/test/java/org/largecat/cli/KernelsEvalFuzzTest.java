package org.largecat.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.largecat.kernel.Kernels;

/**
 * Fuzzes the standard-input parser of {@code largecat kernels eval FUNCTION} with the run's
 * kernels: any bytes give exit 0 with one output line per input line and nothing on standard error,
 * or exit 2 with nothing on standard output and one error line per malformed line plus a summary;
 * nothing is thrown.
 */
class KernelsEvalFuzzTest {
  private static final Kernels KERNELS = Kernels.get();

  @FuzzTest
  void evaluatesOrExplains(FuzzedDataProvider input) {
    EvalFunction function = input.pickValue(EvalFunction.values());
    byte[] stdin = input.consumeRemainingAsBytes();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        KernelsCommand.eval(
            function,
            KERNELS,
            new ByteArrayInputStream(stdin),
            new PrintStream(out, true, UTF_8),
            new PrintStream(err, true, UTF_8));
    long inputLines = new String(stdin, UTF_8).lines().count();
    String printed = out.toString(UTF_8);
    String errors = err.toString(UTF_8);
    if (status == 0) {
      assertEquals("", errors);
      assertEquals(inputLines, printed.lines().count(), "one output line per case");
      for (String line : printed.lines().toList()) {
        assertEquals(function.outputCount(), line.split("\t", -1).length, line);
      }
    } else {
      assertEquals(2, status);
      assertEquals("", printed);
      long errorLines = errors.lines().count();
      assertTrue(errorLines >= 2 && errorLines <= inputLines + 1, errors);
      assertTrue(errors.lines().allMatch(l -> l.startsWith("largecat kernels eval ")), errors);
    }
  }
}
