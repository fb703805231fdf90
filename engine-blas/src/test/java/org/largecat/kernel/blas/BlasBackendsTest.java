package org.largecat.kernel.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.NativeBLAS;
import dev.ludovic.netlib.lapack.LAPACK;
import dev.ludovic.netlib.lapack.NativeLAPACK;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.largecat.kernel.BackendCatalog;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;

/**
 * What the two BLAS backends loaded, as their details report it. Where a machine lacks the native
 * libraries, blas runs on netlib's Java code and jblas is unavailable; CI, which installs them,
 * sets {@code largecat.test.requireNativeBlas=true} so that neither can happen there unnoticed.
 */
class BlasBackendsTest {
  private static final String REQUIRE_NATIVE = "largecat.test.requireNativeBlas";

  @Test
  void netlibSaysWhetherItRunsNativeCodeAndFromWhichLibrary() {
    BackendCatalog.Entry blas = Kernels.catalog().entry("blas");
    assertTrue(blas.available(), () -> "blas is unavailable: " + blas.reason());
    boolean nativeCode =
        BLAS.getInstance() instanceof NativeBLAS && LAPACK.getInstance() instanceof NativeLAPACK;
    assertTrue(
        blas.detail().startsWith("netlib " + BLAS.getInstance().getClass().getSimpleName()),
        blas.detail());
    assertTrue(
        nativeCode ? blas.detail().contains(".so") : blas.detail().contains("Java fallback"),
        blas.detail());
    String warning = blas.families().warning();
    assertTrue(
        nativeCode ? warning == null : warning.contains("apt-get install libopenblas0"),
        String.valueOf(warning));
  }

  /**
   * OpenBLAS runs one thread a call unless the environment sets a count, and the detail says which;
   * a count in the environment is left as it is.
   */
  @Test
  void openBlasRunsOneThreadUnlessTheEnvironmentSetsACount() {
    String detail = Kernels.catalog().entry("blas").detail();
    if (!detail.contains("OpenBLAS")) {
      assertTrue(
          !"true".equals(System.getProperty(REQUIRE_NATIVE)), "no OpenBLAS under blas: " + detail);
      return;
    }
    String given =
        OpenBlasThreads.VARIABLES.stream()
            .filter(System.getenv()::containsKey)
            .findFirst()
            .orElse(null);
    assertTrue(
        given == null
            ? detail.contains("1 thread; set to one thread a call")
            : detail.contains("; threads as " + given + " says"),
        detail);
    List<Path> libraries = MappedLibraries.matching(name -> name.contains("openblas"));
    assertEquals(
        Optional.of("threads as OMP_NUM_THREADS says"),
        OpenBlasThreads.oneUnlessSet(libraries, Map.of("OMP_NUM_THREADS", "2")));
  }

  @Test
  void jblasNamesItsBundledLibraryOrSaysWhatItNeeds() {
    BackendCatalog.Entry jblas = Kernels.catalog().entry("jblas");
    if (jblas.available()) {
      assertTrue(jblas.detail().contains("libjblas.so"), jblas.detail());
    } else {
      assertTrue(jblas.fix().contains("libgfortran5"), jblas.fix());
    }
  }

  @Test
  void theBlasBackendsImplementTheMatrixFamilyAndNoFunctions() {
    for (String backend : new String[] {"blas", "jblas"}) {
      BackendCatalog.Entry e = Kernels.catalog().entry(backend);
      if (e.available()) {
        assertNotNull(e.families().get(KernelFamily.MATRIX_OPS), backend);
        assertNull(e.families().get(KernelFamily.SPECIAL_FUNCTIONS), backend);
        assertNull(e.families().get(KernelFamily.IMPLICIT_UPDATES), backend);
      }
    }
  }

  @Test
  @EnabledIfSystemProperty(named = REQUIRE_NATIVE, matches = "true")
  void netlibBoundTheSystemOpenBlasNotItsJavaFallback() {
    assertInstanceOf(NativeBLAS.class, BLAS.getInstance(), "netlib BLAS");
    assertInstanceOf(NativeLAPACK.class, LAPACK.getInstance(), "netlib LAPACK");
    String detail = Kernels.catalog().entry("blas").detail();
    assertTrue(detail.contains("libopenblas"), detail);
  }

  @Test
  @EnabledIfSystemProperty(named = REQUIRE_NATIVE, matches = "true")
  void jblasLoadedItsBundledLibrary() {
    BackendCatalog.Entry jblas = Kernels.catalog().entry("jblas");
    assertTrue(
        jblas.available(),
        () -> "jblas is unavailable: " + jblas.reason() + " (fix: " + jblas.fix() + ")");
  }
}
