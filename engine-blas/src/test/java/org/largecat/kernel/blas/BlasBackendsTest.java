package org.largecat.kernel.blas;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.NativeBLAS;
import dev.ludovic.netlib.lapack.LAPACK;
import dev.ludovic.netlib.lapack.NativeLAPACK;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.largecat.kernel.BackendCatalog;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;

/** What the two BLAS backends loaded, as their details report it. */
class BlasBackendsTest {

  private static String detail(String backend) {
    BackendCatalog.Entry e = Kernels.catalog().entry(backend);
    assertTrue(e.available(), () -> backend + " is unavailable: " + e.reason());
    return e.detail();
  }

  @Test
  void netlibSaysWhetherItRunsNativeCodeAndFromWhichLibrary() {
    String detail = detail("blas");
    boolean nativeBlas = BLAS.getInstance() instanceof NativeBLAS && LAPACK.getInstance() instanceof NativeLAPACK;
    assertTrue(detail.startsWith("netlib " + BLAS.getInstance().getClass().getSimpleName()), detail);
    assertTrue(nativeBlas ? detail.contains(".so") : detail.contains("Java fallback"), detail);
  }

  @Test
  void jblasNamesItsBundledLibrary() {
    String detail = detail("jblas");
    assertTrue(detail.contains("libjblas.so"), detail);
  }

  @Test
  void theBlasBackendsImplementTheMatrixFamilyAndNoFunctions() {
    for (String backend : new String[] {"blas", "jblas"}) {
      var families = Kernels.catalog().entry(backend).families();
      assertTrue(families.get(KernelFamily.MATRIX_OPS) != null, backend);
      assertTrue(families.get(KernelFamily.SPECIAL_FUNCTIONS) == null && families.get(KernelFamily.IMPLICIT_UPDATES) == null,
          backend + " should inherit the special functions and implicit updates");
    }
  }

  /** CI installs OpenBLAS and sets the property, so a silent fall back to netlib's Java code fails the build. */
  @Test
  @EnabledIfSystemProperty(named = "largecat.test.requireNativeBlas", matches = "true")
  void netlibBoundTheSystemOpenBlasNotItsJavaFallback() {
    assertInstanceOf(NativeBLAS.class, BLAS.getInstance(), "netlib BLAS");
    assertInstanceOf(NativeLAPACK.class, LAPACK.getInstance(), "netlib LAPACK");
    String detail = detail("blas");
    assertTrue(detail.contains("libopenblas"), detail);
  }
}
