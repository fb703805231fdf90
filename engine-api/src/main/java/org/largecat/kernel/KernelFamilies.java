package org.largecat.kernel;

/**
 * The families one backend implements; a null component means the backend does not implement that
 * family and inherits it. {@code detail} says what the backend actually loaded when that can differ
 * from machine to machine (e.g. which native BLAS library, or a pure-Java fallback), or is null.
 * {@code warning} is null, or says why the backend runs here below what it is chosen for and how to
 * fix that (e.g. a native library to install); it is logged once at WARNING.
 */
public record KernelFamilies(
    VectorOps vectorOps,
    SpecialFunctions specialFunctions,
    ImplicitUpdates implicitUpdates,
    MatrixOps matrixOps,
    String detail,
    String warning) {

  /** Families that run as intended here, with what they loaded. */
  public KernelFamilies(
      VectorOps vectorOps,
      SpecialFunctions specialFunctions,
      ImplicitUpdates implicitUpdates,
      MatrixOps matrixOps,
      String detail) {
    this(vectorOps, specialFunctions, implicitUpdates, matrixOps, detail, null);
  }

  /** Families with nothing machine-dependent to report. */
  public KernelFamilies(
      VectorOps vectorOps,
      SpecialFunctions specialFunctions,
      ImplicitUpdates implicitUpdates,
      MatrixOps matrixOps) {
    this(vectorOps, specialFunctions, implicitUpdates, matrixOps, null, null);
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
