package org.largecat.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * One line on the machine a benchmark ran on: the time, CPU model, cores and load averages (Linux's
 * /proc).
 */
final class MachineLoad {
  private MachineLoad() {}

  static String describe() {
    return Instant.now()
        + " cpu '"
        + cpuModel()
        + "' x"
        + Runtime.getRuntime().availableProcessors()
        + ", load average (1, 5, 15 min) "
        + loadAverages();
  }

  private static String loadAverages() {
    String[] fields = read("/proc/loadavg").trim().split("\\s+");
    return fields.length >= 3
        ? fields[0] + " " + fields[1] + " " + fields[2]
        : String.join(" ", fields);
  }

  private static String cpuModel() {
    return CpuKind.ofThisMachine().map(CpuKind::name).orElse("unknown");
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file));
    } catch (IOException e) {
      return "unknown (" + file + ": " + e.getMessage() + ")";
    }
  }
}
