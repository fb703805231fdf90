package org.largecat.kernel.nativecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.BackendCatalog;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;

/**
 * The library this test run loaded: the instruction-set build it runs is the one the CPU flags of
 * /proc/cpuinfo call for, capped by -Dlargecat.native.maxIsa (so each surefire execution really
 * covers the build it names); and the families the native backend provides.
 */
class NativeLibraryTest {

  /**
   * The build the kernel's CPU flags call for, by the same rule as cpu.c, read independently of it.
   */
  private static String expectedBest(List<String> builds) throws IOException {
    if (!builds.contains("avx512")) {
      return builds.get(0);
    }
    String flags =
        Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
            .filter(l -> l.startsWith("flags"))
            .findFirst()
            .orElseThrow();
    List<String> f = Arrays.asList(flags.substring(flags.indexOf(':') + 1).trim().split(" "));
    boolean avx2 = f.contains("avx2") && f.contains("fma");
    if (avx2 && f.containsAll(List.of("avx512f", "avx512dq", "avx512vl", "avx512bw"))) {
      return "avx512";
    }
    return avx2 ? "avx2" : "sse2";
  }

  @Test
  void runsTheBestBuildTheCpuAllowsUnderTheCap() throws IOException {
    assumeTrue(Kernels.catalog().entry("native").available(), "native backend not available here");
    List<String> builds = NativeLibrary.builds();
    int best = builds.indexOf(expectedBest(builds));
    String cap = System.getProperty(NativeLibrary.MAX_ISA_PROPERTY);
    int expected = cap == null ? best : Math.max(best, builds.indexOf(cap));
    assertEquals(builds.get(expected), NativeLibrary.isa());
    System.out.println(
        "native backend runs the "
            + NativeLibrary.isa()
            + " build of liblargecat (builds "
            + builds
            + (cap == null ? "" : ", capped at " + cap)
            + ")");
  }

  @Test
  void implementsVectorSpecialAndImplicitFamilies() {
    BackendCatalog.Entry e = Kernels.catalog().entry("native");
    assumeTrue(e.available(), "native backend not available here");
    assertTrue(e.families().get(KernelFamily.VECTOR_OPS) instanceof NativeVectorOps);
    assertTrue(e.families().get(KernelFamily.SPECIAL_FUNCTIONS) instanceof NativeSpecialFunctions);
    assertTrue(e.families().get(KernelFamily.IMPLICIT_UPDATES) instanceof NativeImplicitUpdates);
    assertNull(e.families().get(KernelFamily.MATRIX_OPS));
  }
}
