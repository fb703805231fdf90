package org.largecat.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The baselines of a directory ({@code bench/baselines/}): each {@code NAME.json} with a {@code
 * NAME.json.txt} that names its profile (first line) and the kind of CPU it ran on (a {@code cpu:}
 * line), and the choice of the one recorded on a given CPU kind.
 */
public final class Baselines {
  private Baselines() {}

  /** One baseline file, its CPU kind and profile (empty when its FILE.txt does not say). */
  public record Baseline(Path file, CpuKind cpu, String profile) {}

  /** The chosen baseline and why it was chosen, in one line. */
  public record Choice(Path file, String reason) {}

  /** The baselines in {@code dir} whose FILE.txt names their CPU kind, by file name. */
  public static List<Baseline> list(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(dir + ": no such directory of baselines");
    }
    List<Baseline> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path json : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        Path sidecar = Path.of(json + ".txt");
        if (!Files.isRegularFile(sidecar)) {
          continue;
        }
        List<String> lines = Files.readAllLines(sidecar);
        Optional<CpuKind> cpu =
            lines.stream().map(CpuKind::fromSidecarLine).flatMap(Optional::stream).findFirst();
        if (cpu.isPresent()) {
          found.add(new Baseline(json, cpu.get(), profile(lines)));
        }
      }
    }
    return found;
  }

  /**
   * The baseline in {@code dir} recorded on CPU kind {@code here}, of {@code profile} when several
   * match and it is not null (the current run's, from its own FILE.txt).
   *
   * @throws IllegalArgumentException when none matches, or more than one does: the message lists
   *     the baselines there and their CPU kinds
   */
  public static Choice pick(Path dir, CpuKind here, String profile) throws IOException {
    List<Baseline> all = list(dir);
    List<Baseline> sameCpu = all.stream().filter(b -> b.cpu().sameKind(here)).toList();
    List<Baseline> chosen =
        sameCpu.size() > 1 && profile != null
            ? sameCpu.stream().filter(b -> profile.equals(b.profile())).toList()
            : sameCpu;
    if (chosen.size() == 1) {
      Baseline b = chosen.getFirst();
      return new Choice(
          b.file(),
          "recorded on this CPU's kind, "
              + here
              + (here.name().isEmpty() ? "" : " ('" + here.name() + "')")
              + (sameCpu.size() > 1 ? ", profile " + profile : ""));
    }
    if (chosen.isEmpty()) {
      String listing =
          all.isEmpty()
              ? "there is none with a 'cpu:' line in its FILE.txt"
              : "there are "
                  + all.stream()
                      .map(b -> b.file().getFileName() + " (" + b.cpu() + ")")
                      .collect(Collectors.joining(", "));
      throw new IllegalArgumentException(
          "no baseline in "
              + dir
              + " was recorded on this CPU's kind, "
              + here
              + "; "
              + listing
              + ". Give one as BASELINE.json, or record one here: ./largecat bench --profile short"
              + " --out "
              + dir.resolve("short-<cpu>.json"));
    }
    throw new IllegalArgumentException(
        chosen.size()
            + " baselines in "
            + dir
            + " were recorded on this CPU's kind, "
            + here
            + (profile == null ? "" : ", profile " + profile)
            + ": "
            + chosen.stream().map(b -> b.file().getFileName().toString()).toList()
            + "; give one as BASELINE.json");
  }

  /** The profile that the first line of a FILE.txt names ("profile short: ..."), or null. */
  public static String profile(List<String> sidecarLines) {
    if (sidecarLines.isEmpty() || !sidecarLines.getFirst().startsWith("profile ")) {
      return null;
    }
    String rest = sidecarLines.getFirst().substring("profile ".length());
    int colon = rest.indexOf(':');
    return colon < 0 ? null : rest.substring(0, colon);
  }
}
