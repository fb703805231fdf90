package org.largecat.kernel;

/**
 * The families one backend implements; a null component means the backend does not implement that
 * family and inherits it. {@code detail} says what the backend actually loaded when that can differ
 * from machine to machine (e.g. which native BLAS library, or a pure-Java fallback), or is null.
 */
public record KernelFamilies(VectorOps vectorOps, SpecialFunctions specialFunctions,
    ImplicitUpdates implicitUpdates, MatrixOps matrixOps, String detail) {

  /** Families with nothing machine-dependent to report. */
  public KernelFamilies(VectorOps vectorOps, SpecialFunctions specialFunctions, ImplicitUpdates implicitUpdates,
      MatrixOps matrixOps) {
    this(vectorOps, specialFunctions, implicitUpdates, matrixOps, null);
  }

  /** The implementation of one family, or null. */
  public Object get(KernelFamily family) {
    return switch (family) {
      case VECTOR_OPS -> vectorOps;
      case SPECIAL_FUNCTIONS -> specialFunctions;
      case IMPLICIT_UPDATES -> implicitUpdates;
      case MATRIX_OPS -> matrixOps;
    };
  }
}
