package org.largecat.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.largecat.kernel.KernelFamily;
import org.largecat.kernel.Kernels;

/**
 * The refusals of {@link ResolvedBackends#select} that come before it touches this JVM's kernels,
 * and the label {@link BackendRecorder} stores (selecting for real needs a fork of its own: JMH's).
 */
class ResolvedBackendsTest {
  @Test
  void aBackendThatDoesNotImplementTheMeasuredFamilyIsRefusedNamingWhatWouldRunInstead() {
    assumeTrue(
        Kernels.catalog().entry("native").available(),
        "the native backend, which has no matrix ops, is not built here");
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> ResolvedBackends.select("native", KernelFamily.MATRIX_OPS));
    String instead = Kernels.of("native").backendOf(KernelFamily.MATRIX_OPS);
    assertTrue(
        e.getMessage()
            .contains(
                "backend 'native' does not implement matrix-ops, so this benchmark would measure "
                    + instead),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("backends that implement it: ")
            && e.getMessage().contains("scalar"),
        e.getMessage());
  }

  @Test
  void anUnknownBackendIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ResolvedBackends.select("fastest", KernelFamily.VECTOR_OPS));
    assertTrue(e.getMessage().contains("unknown largecat backend 'fastest'"), e.getMessage());
  }

  @Test
  void theLabelNamesEveryFamilyWithoutCommas() {
    assertEquals(
        "backends vector-ops=scalar special-functions=scalar implicit-updates=scalar matrix-ops=scalar",
        BackendRecorder.label(Kernels.of("scalar")));
  }
}
