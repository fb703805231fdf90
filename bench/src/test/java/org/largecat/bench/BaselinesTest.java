package org.largecat.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CPU kinds from /proc/cpuinfo and baselines' FILE.txt, and the choice of a baseline by kind. */
class BaselinesTest {
  @TempDir Path dir;

  /** Two processors of a Zen 3 EPYC as Linux prints them (abridged). */
  private static final String ZEN3_CPUINFO =
      """
      processor	: 0
      vendor_id	: AuthenticAMD
      cpu family	: 25
      model		: 1
      model name	: AMD EPYC 7B13
      stepping	: 0
      flags		: fpu vme de pse avx2 fma

      processor	: 1
      vendor_id	: AuthenticAMD
      cpu family	: 25
      model		: 17
      model name	: some other CPU
      """;

  private static final CpuKind ZEN3 = new CpuKind("AuthenticAMD", 25, 1, "AMD EPYC 7B13");
  private static final CpuKind ZEN4 = new CpuKind("AuthenticAMD", 25, 17, "AMD EPYC");
  private static final CpuKind ZEN5 = new CpuKind("AuthenticAMD", 26, 2, "AMD EPYC");

  @Test
  void cpuinfoGivesTheFirstProcessorsVendorFamilyAndModel() {
    assertEquals(Optional.of(ZEN3), CpuKind.fromCpuinfo(ZEN3_CPUINFO));
    // "model name" is not "model", and its absence only leaves the name empty.
    assertEquals(
        Optional.of(new CpuKind("GenuineIntel", 6, 143, "")),
        CpuKind.fromCpuinfo("vendor_id : GenuineIntel\ncpu family : 6\nmodel : 143\n"));
    // An aarch64 cpuinfo has no vendor_id or family.
    assertEquals(Optional.empty(), CpuKind.fromCpuinfo("processor : 0\nCPU implementer : 0x41\n"));
    assertEquals(
        Optional.empty(),
        CpuKind.fromCpuinfo("vendor_id : AuthenticAMD\ncpu family : x\nmodel : 1\n"));
  }

  @Test
  void theSidecarLineReadsBackAndNamesDoNotMatter() {
    assertEquals(Optional.of(ZEN3), CpuKind.fromSidecarLine(ZEN3.sidecarLine()));
    assertEquals("cpu: AuthenticAMD family 25 model 1 ('AMD EPYC 7B13')", ZEN3.sidecarLine());
    assertEquals(Optional.empty(), CpuKind.fromSidecarLine("cpu: unknown"));
    assertTrue(ZEN4.sameKind(new CpuKind("AuthenticAMD", 25, 17, "AMD EPYC 9B14")));
    assertTrue(!ZEN4.sameKind(ZEN3));
  }

  private void baseline(String name, String profile, CpuKind cpu) throws IOException {
    Files.writeString(dir.resolve(name), "[]\n");
    Files.writeString(
        dir.resolve(name + ".txt"),
        "profile " + profile + ": 1 results in 1 s\n" + cpu.sidecarLine() + "\nbefore: ...\n");
  }

  @Test
  void picksTheBaselineOfThisCpusKindAndProfile() throws IOException {
    baseline("short-zen4.json", "short", ZEN4);
    baseline("short-zen5.json", "short", ZEN5);
    baseline("full-zen5.json", "full", ZEN5);
    // A baseline without a cpu: line (recorded before they had one) is not a candidate.
    Files.writeString(dir.resolve("old.json"), "[]\n");
    Files.writeString(dir.resolve("old.json.txt"), "profile short: 1 results\n");
    assertEquals(
        List.of("full-zen5.json", "short-zen4.json", "short-zen5.json"),
        Baselines.list(dir).stream().map(b -> b.file().getFileName().toString()).toList());

    Baselines.Choice zen4 = Baselines.pick(dir, ZEN4, null);
    assertEquals(dir.resolve("short-zen4.json"), zen4.file());
    assertTrue(zen4.reason().contains("AuthenticAMD family 25 model 17"), zen4.reason());

    assertEquals(dir.resolve("full-zen5.json"), Baselines.pick(dir, ZEN5, "full").file());
    assertEquals(dir.resolve("short-zen5.json"), Baselines.pick(dir, ZEN5, "short").file());
    IllegalArgumentException twoOfThem =
        assertThrows(IllegalArgumentException.class, () -> Baselines.pick(dir, ZEN5, null));
    assertTrue(
        twoOfThem.getMessage().contains("2 baselines")
            && twoOfThem.getMessage().contains("full-zen5.json, short-zen5.json"),
        twoOfThem.getMessage());
  }

  @Test
  void noneOfThisKindSaysSoAndListsThoseThere() throws IOException {
    baseline("short-zen4.json", "short", ZEN4);
    baseline("short-zen5.json", "short", ZEN5);
    IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> Baselines.pick(dir, ZEN3, "short"));
    String m = none.getMessage();
    assertTrue(m.contains("no baseline in " + dir), m);
    assertTrue(m.contains("this CPU's kind, AuthenticAMD family 25 model 1"), m);
    assertTrue(
        m.contains(
            "short-zen4.json (AuthenticAMD family 25 model 17), short-zen5.json (AuthenticAMD"
                + " family 26 model 2)"),
        m);
    assertTrue(m.contains("./largecat bench --profile short --out"), m);
    assertThrows(
        IllegalArgumentException.class,
        () -> Baselines.pick(dir.resolve("missing"), ZEN3, null),
        "no such directory");
  }

  @Test
  void theCommittedBaselinesNameTheirCpus() throws IOException {
    Path committed = Path.of("baselines");
    List<Baselines.Baseline> all = Baselines.list(committed);
    try (var files = Files.list(committed)) {
      assertEquals(
          files.filter(f -> f.toString().endsWith(".json")).count(),
          all.size(),
          "a baseline in bench/baselines has no 'cpu:' line in its FILE.txt");
    }
    assertEquals(
        Path.of("baselines/short-zen5-avx512-2core.json"),
        Baselines.pick(committed, ZEN5, "short").file());
    assertEquals(
        Path.of("baselines/short-zen4-avx512-2core.json"),
        Baselines.pick(committed, ZEN4, "short").file());
  }
}
