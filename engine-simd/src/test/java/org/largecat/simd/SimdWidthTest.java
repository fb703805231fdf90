package org.largecat.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jdk.incubator.vector.VectorShape;
import org.junit.jupiter.api.Test;

/** The width cap of each test run really took effect, so each run covers the machine it emulates. */
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
    System.out.println("simd backend runs " + SimdKernels.describe());
  }
}
