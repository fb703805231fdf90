package org.largecat.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.scalar.ScalarBackend;
import org.largecat.kernel.scalar.ScalarMatrixOps;
import org.largecat.kernel.scalar.ScalarSpecialFunctions;

class BackendSelectionTest {

  /** A backend with this name whose load() is the given supplier. */
  private static KernelBackend backend(String name, Supplier<KernelFamilies> load) {
    return new KernelBackend() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public KernelFamilies load() {
        return load.get();
      }
    };
  }

  /** A backend that implements only the special functions, under a standard name. */
  private static KernelBackend partial(String name) {
    return backend(name, () -> new KernelFamilies(null, new ScalarSpecialFunctions(), null, null));
  }

  /** A backend that implements only the matrix family, under a standard name. */
  private static KernelBackend matrixOnly(String name) {
    return backend(
        name, () -> new KernelFamilies(null, null, null, new ScalarMatrixOps(), name + " detail"));
  }

  private static KernelBackend unavailable(String name) {
    return backend(
        name,
        () -> {
          throw new BackendUnavailableException("the test says so", "nothing to fix");
        });
  }

  @Test
  void requiredBackendsAreAvailableOnThisClassPath() {
    for (String name : BackendsUnderTest.required()) {
      BackendCatalog.Entry e = Kernels.catalog().entry(name);
      assertTrue(
          e != null && e.available(),
          () ->
              "backend "
                  + name
                  + " is required by "
                  + BackendsUnderTest.REQUIRED_PROPERTY
                  + " but is "
                  + (e == null ? "unknown" : "unavailable: " + e.reason()));
    }
  }

  @Test
  void autoOnThisClassPathUsesTheFirstAvailableBackendInAutoOrderForEachFamily() {
    Kernels k = Kernels.of(Kernels.AUTO);
    for (KernelFamily f : KernelFamily.values()) {
      List<BackendCatalog.Entry> candidates =
          BackendCatalog.autoOrder(f).stream()
              .map(Kernels.catalog()::entry)
              .filter(e -> e.available() && e.families().get(f) != null)
              .toList();
      // A degraded backend (netlib without OpenBLAS) goes behind all but the scalar reference.
      String expected =
          candidates.stream()
              .filter(e -> e.families().warning() == null && !e.name().equals("scalar"))
              .findFirst()
              .or(() -> candidates.stream().filter(e -> e.families().warning() != null).findFirst())
              .orElse(candidates.getLast())
              .name();
      assertEquals(expected, k.backendOf(f), f.label());
    }
  }

  @Test
  void autoTakesEachFamilyFromTheFastestBackendThatImplementsIt() {
    BackendCatalog catalog = BackendCatalog.of(List.of(new ScalarBackend(), partial("simd")));
    Kernels k = Kernels.select(catalog, "auto", false);
    assertEquals("simd", k.backendOf(KernelFamily.SPECIAL_FUNCTIONS));
    assertEquals("scalar", k.backendOf(KernelFamily.VECTOR_OPS));
    assertEquals("scalar", k.backendOf(KernelFamily.MATRIX_OPS));
    assertEquals("scalar", k.backendOf(KernelFamily.IMPLICIT_UPDATES));
  }

  @Test
  void autoPrefersBlasToJblasAndFallsBackToJblas() {
    BackendCatalog both =
        BackendCatalog.of(List.of(new ScalarBackend(), matrixOnly("jblas"), matrixOnly("blas")));
    assertEquals("blas", Kernels.select(both, "auto", false).backendOf(KernelFamily.MATRIX_OPS));
    BackendCatalog jblasOnly =
        BackendCatalog.of(List.of(new ScalarBackend(), matrixOnly("jblas"), unavailable("blas")));
    Kernels k = Kernels.select(jblasOnly, "auto", false);
    assertEquals("jblas", k.backendOf(KernelFamily.MATRIX_OPS));
    assertEquals("scalar", k.backendOf(KernelFamily.VECTOR_OPS));
    assertTrue(k.report(jblasOnly).contains("jblas uses jblas detail"), k.report(jblasOnly));
  }

  /** A matrix backend that loads but says it runs below its speed (netlib on its Java code). */
  private static KernelBackend degraded(String name) {
    return backend(
        name,
        () ->
            new KernelFamilies(
                null, null, null, new ScalarMatrixOps(), name + " detail", "runs its fallback"));
  }

  @Test
  void autoPutsADegradedBackendBehindTheOthersButBeforeScalarAndForcingStillTakesIt() {
    BackendCatalog catalog =
        BackendCatalog.of(List.of(new ScalarBackend(), degraded("blas"), matrixOnly("jblas")));
    Kernels auto = Kernels.select(catalog, "auto", false);
    assertEquals("jblas", auto.backendOf(KernelFamily.MATRIX_OPS));
    assertTrue(
        auto.report(catalog).contains("not chosen blas: it runs degraded here"),
        auto.report(catalog));
    assertEquals("blas", Kernels.select(catalog, "blas", false).backendOf(KernelFamily.MATRIX_OPS));
    BackendCatalog onlyDegraded = BackendCatalog.of(List.of(new ScalarBackend(), degraded("blas")));
    assertEquals(
        "blas",
        Kernels.select(onlyDegraded, "auto", false).backendOf(KernelFamily.MATRIX_OPS),
        "degraded, it still comes before the scalar reference");
  }

  @Test
  void forcingABackendTakesItsFamiliesAndInheritsTheRest() {
    BackendCatalog catalog =
        BackendCatalog.of(List.of(new ScalarBackend(), partial("simd"), partial("native")));
    Kernels k = Kernels.select(catalog, "simd", false);
    assertEquals("simd", k.backendOf(KernelFamily.SPECIAL_FUNCTIONS));
    assertEquals("scalar", k.backendOf(KernelFamily.VECTOR_OPS));
    Kernels scalar = Kernels.select(catalog, "scalar", false);
    for (KernelFamily f : KernelFamily.values()) {
      assertEquals("scalar", scalar.backendOf(f));
    }
  }

  @Test
  void forcingAnUnavailableBackendIsAnErrorWithTheReasonAndTheFix() {
    BackendCatalog catalog = BackendCatalog.of(List.of(new ScalarBackend(), unavailable("simd")));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Kernels.select(catalog, "simd", false));
    assertTrue(
        e.getMessage().contains("the test says so") && e.getMessage().contains("nothing to fix"),
        e.getMessage());
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class, () -> Kernels.select(catalog, "native", false));
    assertTrue(missing.getMessage().contains("not on the class path"), missing.getMessage());
  }

  @Test
  void anUnknownBackendNameIsAnErrorListingTheKnownOnes() {
    BackendCatalog catalog = BackendCatalog.of(List.of(new ScalarBackend()));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Kernels.select(catalog, "gpu", false));
    assertTrue(
        e.getMessage().contains("gpu")
            && e.getMessage().contains("known: auto, native, simd, blas, jblas, scalar"),
        e.getMessage());
  }

  @Test
  void theReportNamesEveryFamilyAndWhyEachOtherBackendWasSkipped() {
    BackendCatalog catalog = BackendCatalog.of(List.of(new ScalarBackend(), unavailable("simd")));
    String report = Kernels.select(catalog, "auto", false).report(catalog);
    for (KernelFamily f : KernelFamily.values()) {
      assertTrue(report.contains(f.label() + "=scalar"), report);
    }
    assertTrue(report.contains("skipped simd: the test says so (fix: nothing to fix)"), report);
    assertTrue(report.contains("skipped native: not on the class path"), report);
    assertFalse(report.contains("skipped scalar"), report);
  }

  @Test
  void aBackendThatFailsOtherwiseThanUnavailableIsARealErrorWhenProbed() {
    KernelBackend broken =
        backend(
            "simd",
            () -> {
              throw new IllegalStateException("bug");
            });
    BackendCatalog catalog = BackendCatalog.of(List.of(new ScalarBackend(), broken));
    assertThrows(IllegalStateException.class, () -> Kernels.select(catalog, "auto", false));
    assertThrows(IllegalStateException.class, catalog::entries);
  }

  /** A backend whose every family is the scalar reference's, under a standard name. */
  private static KernelBackend complete(String name) {
    return backend(name, () -> new ScalarBackend().load());
  }

  /** A backend that fails the test if it is ever probed. */
  private static KernelBackend mustNotBeProbed(String name) {
    return backend(
        name,
        () -> {
          throw new AssertionError(name + " was probed");
        });
  }

  @Test
  void autoProbesBackendsOnlyUntilEachFamilyHasOneAndTheReportSaysWhichWereNot() {
    BackendCatalog catalog =
        BackendCatalog.of(
            List.of(
                complete("native"),
                partial("simd"),
                mustNotBeProbed("jblas"),
                new ScalarBackend(),
                matrixOnly("blas")));
    Kernels k = Kernels.select(catalog, "auto", false);
    for (KernelFamily f : KernelFamily.values()) {
      // Implicit updates look at simd first (it lacks them here), matrix ops at blas.
      assertEquals(f == KernelFamily.MATRIX_OPS ? "blas" : "native", k.backendOf(f), f.label());
    }
    String report = k.report(catalog);
    for (String name : List.of("jblas", "scalar")) {
      assertTrue(
          report.contains(
              "not probed " + name + ": a backend before it in auto order covers each family"),
          report);
    }
    assertTrue(report.contains("blas uses blas detail"), report);
    assertTrue(report.contains("not chosen simd: a faster backend covers its families"), report);
    assertFalse(report.contains("not probed native") || report.contains("not probed blas"), report);
    assertEquals(
        "scalar", Kernels.select(catalog, "scalar", false).backendOf(KernelFamily.VECTOR_OPS));
    assertTrue(catalog.probed("scalar").available(), "forcing a backend probes it");
  }

  @Test
  void twoBackendsWithOneNameAreAnError() {
    assertThrows(
        IllegalStateException.class,
        () -> BackendCatalog.of(List.of(new ScalarBackend(), new ScalarBackend())));
  }

  @Test
  void aFamilyLeftToScalarBecauseAFasterBackendIsMissingOrCannotRunIsAWarningWithTheFix() {
    // engine-api alone, as when a program has algorithms but none of the backend jars.
    BackendCatalog alone = BackendCatalog.of(List.of(new ScalarBackend()));
    List<String> warnings = Kernels.warnings(alone, Kernels.select(alone, "auto", false));
    assertEquals(4, warnings.size(), warnings::toString);
    String simd = warnings.get(1);
    assertTrue(
        simd.contains(
                "vector-ops, special-functions, implicit-updates, matrix-ops fall back to the slow"
                    + " scalar reference: backend simd is unavailable: not on the class path")
            && simd.contains("add org.largecat:engine-simd")
            && simd.contains("org.largecat:largecat"),
        simd);
    assertEquals(
        List.of(), Kernels.warnings(alone, Kernels.select(alone, "scalar", false)), "asked for");

    // A backend that cannot run is a warning whether or not scalar takes its families; one merely
    // missing while another covers its families is not.
    BackendCatalog covered =
        BackendCatalog.of(List.of(new ScalarBackend(), unavailable("native"), complete("simd")));
    assertEquals(
        List.of(
            "largecat backend native is unavailable: the test says so; to use it: nothing to fix"),
        Kernels.warnings(covered, Kernels.select(covered, "auto", false)));
    BackendCatalog uncovered =
        BackendCatalog.of(List.of(new ScalarBackend(), unavailable("native"), partial("simd")));
    List<String> partly = Kernels.warnings(uncovered, Kernels.select(uncovered, "auto", false));
    assertTrue(
        partly
            .get(0)
            .startsWith(
                "largecat kernels: vector-ops, implicit-updates, matrix-ops fall back to the slow"
                    + " scalar reference: backend native is unavailable: the test says so"),
        partly::toString);
  }
}
