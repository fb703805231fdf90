package org.largecat.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.largecat.kernel.Kernels;

class SparkCommandTest {
  @Test
  void kernelsReportsTheBackendChoiceOfEachExecutor() throws Exception {
    CommandRun run = CommandRun.of("spark", "kernels", "--master", "local[2]", "--partitions", "3");
    assertEquals(0, run.status(), run.err());
    // Local mode: the one executor is this JVM, which chose as Kernels.get() did.
    assertEquals(
        "executor driver on 127.0.0.1: " + Kernels.get().describeChoice() + "\n",
        run.out().replace(System.lineSeparator(), "\n"));
  }

  @Test
  void aBadSparkSettingIsOneLineNamingIt() throws Exception {
    CommandRun run = CommandRun.of("spark", "kernels", "--master", "nowhere://x");
    assertEquals(Failures.BAD_INPUT, run.status());
    assertTrue(
        run.err()
            .startsWith(
                "largecat spark kernels: cannot start Spark with master nowhere://x: Could not"
                    + " parse Master URL"),
        run.err());
  }
}
