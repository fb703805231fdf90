package org.largecat.kernel;

/**
 * The families one backend implements; a null component means the backend does not implement that
 * family and inherits it.
 */
public record KernelFamilies(
    VectorOps vectorOps, SpecialFunctions specialFunctions, ImplicitUpdates implicitUpdates, MatrixOps matrixOps) {

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
