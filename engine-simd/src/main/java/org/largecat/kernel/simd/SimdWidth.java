package org.largecat.kernel.simd;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The species every kernel uses: the preferred vector shape of this CPU, capped by {@code
 * -Dlargecat.simd.maxBits=128|256|512} to emulate narrower hardware. They are static finals so the
 * JIT sees constants, which the Vector API needs to compile to vector instructions.
 */
final class SimdWidth {
  static final String MAX_BITS_PROPERTY = "largecat.simd.maxBits";
  private static final VectorShape SHAPE = shape();
  static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED.withShape(SHAPE);
  static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED.withShape(SHAPE);

  /** Floats as many as DOUBLES has lanes (half the width), for widening to double. */
  static final VectorSpecies<Float> FLOATS_PER_DOUBLES =
      VectorSpecies.of(float.class, VectorShape.forBitSize(SHAPE.vectorBitSize() / 2));

  private SimdWidth() {}

  static int bits() {
    return SHAPE.vectorBitSize();
  }

  private static VectorShape shape() {
    VectorShape preferred = VectorShape.preferredShape();
    String cap = System.getProperty(MAX_BITS_PROPERTY);
    if (cap == null || cap.isBlank()) {
      return preferred;
    }
    int bits;
    try {
      bits = Integer.parseInt(cap.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          MAX_BITS_PROPERTY + " = '" + cap + "' is not a number of bits");
    }
    if (bits != 128 && bits != 256 && bits != 512) {
      throw new IllegalArgumentException(
          MAX_BITS_PROPERTY + " = " + bits + " is not 128, 256 or 512");
    }
    return bits >= preferred.vectorBitSize() ? preferred : VectorShape.forBitSize(bits);
  }
}
