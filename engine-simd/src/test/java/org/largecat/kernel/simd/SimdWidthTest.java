package org.largecat.kernel.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jdk.incubator.vector.VectorShape;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.KernelFamilies;

/**
 * The width cap of each test run really took effect, so each run covers the machine it emulates.
 */
class SimdWidthTest {

  @Test
  void speciesHaveTheCappedWidth() {
    int preferred = VectorShape.preferredShape().vectorBitSize();
    String cap = System.getProperty(SimdWidth.MAX_BITS_PROPERTY);
    int expected = cap == null ? preferred : Math.min(preferred, Integer.parseInt(cap));
    assertEquals(expected, SimdWidth.bits());
    assertEquals(expected, SimdWidth.FLOATS.vectorBitSize());
    assertEquals(expected, SimdWidth.DOUBLES.vectorBitSize());
    assertEquals(SimdWidth.DOUBLES.length(), SimdWidth.FLOATS_PER_DOUBLES.length());
    KernelFamilies families = SimdKernels.create();
    System.out.println("simd backend runs " + families.detail());
    // Every run here offers every simd family: the 128-bit run asks for the masked ones, so that
    // the
    // code other architectures run at two lanes stays cross-validated.
    assertTrue(families.specialFunctions() instanceof SimdSpecialFunctions);
    assertTrue(families.implicitUpdates() instanceof SimdImplicitUpdates);
  }

  @Test
  void maskedFamiliesAreLeftToOtherBackendsOnlyAtTwoLanesOnX86() {
    assertFalse(SimdKernels.maskedFamiliesPay(2, "amd64", false));
    assertFalse(SimdKernels.maskedFamiliesPay(2, "x86_64", false));
    assertTrue(SimdKernels.maskedFamiliesPay(2, "amd64", true));
    assertTrue(SimdKernels.maskedFamiliesPay(2, "aarch64", false));
    assertTrue(SimdKernels.maskedFamiliesPay(4, "amd64", false));
    assertTrue(SimdKernels.maskedFamiliesPay(8, "amd64", false));
  }
}
