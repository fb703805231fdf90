package org.largecat.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kind of CPU as Linux's /proc/cpuinfo names it: vendor, family and model. Kernels' speeds differ
 * between kinds that share a model name (AMD EPYC Zen 4 is family 25 model 17, Zen 5 family 26
 * model 2), so a baseline is recorded, and chosen, per kind.
 *
 * @param name the marketing name ("model name"), for people; it takes no part in matching
 */
public record CpuKind(String vendor, int family, int model, String name) {
  /** The line a baseline's FILE.txt carries, which {@link #fromSidecarLine} reads back. */
  private static final Pattern SIDECAR =
      Pattern.compile("^cpu: (\\S+) family (\\d+) model (\\d+)(?: \\('(.*)'\\))?.*$");

  /** This machine's kind, from /proc/cpuinfo; empty where that does not name one. */
  public static Optional<CpuKind> ofThisMachine() {
    try {
      return fromCpuinfo(Files.readString(Path.of("/proc/cpuinfo")));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The first processor's kind in the text of /proc/cpuinfo; empty when a field is missing (not x86
   * Linux, or no /proc).
   */
  public static Optional<CpuKind> fromCpuinfo(String cpuinfo) {
    String vendor = null;
    String name = "";
    Integer family = null;
    Integer model = null;
    for (String line : cpuinfo.split("\n")) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        if (vendor != null) {
          break; // a blank line ends the first processor's block
        }
        continue;
      }
      String key = line.substring(0, colon).trim();
      String value = line.substring(colon + 1).trim();
      switch (key) {
        case "vendor_id" -> vendor = value;
        case "cpu family" -> family = parse(value);
        case "model" -> model = parse(value);
        case "model name" -> name = value;
        default -> {}
      }
    }
    return vendor == null || family == null || model == null
        ? Optional.empty()
        : Optional.of(new CpuKind(vendor, family, model, name));
  }

  /** The kind recorded in one line of a baseline's FILE.txt, if it is the {@code cpu:} line. */
  public static Optional<CpuKind> fromSidecarLine(String line) {
    Matcher m = SIDECAR.matcher(line);
    return m.matches()
        ? Optional.of(
            new CpuKind(
                m.group(1),
                Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)),
                m.group(4) == null ? "" : m.group(4)))
        : Optional.empty();
  }

  /** Whether the two are the same kind: vendor, family and model, whatever their names. */
  public boolean sameKind(CpuKind other) {
    return vendor.equals(other.vendor) && family == other.family && model == other.model;
  }

  /** The {@code cpu:} line of a baseline's FILE.txt. */
  public String sidecarLine() {
    return "cpu: " + this + " ('" + name + "')";
  }

  @Override
  public String toString() {
    return vendor + " family " + family + " model " + model;
  }

  private static Integer parse(String value) {
    try {
      return Integer.valueOf(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
