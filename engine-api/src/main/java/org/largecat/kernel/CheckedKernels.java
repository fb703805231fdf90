package org.largecat.kernel;

import java.util.Map;

/** Wraps each selected family in its check-mode decorator against the scalar reference. */
final class CheckedKernels {
  private CheckedKernels() {}

  static KernelFamilies wrap(
      KernelFamilies tested, Map<KernelFamily, String> chosen, KernelFamilies reference) {
    return new KernelFamilies(
        new CheckedVectorOps(
            tested.vectorOps(), reference.vectorOps(), chosen.get(KernelFamily.VECTOR_OPS)),
        new CheckedSpecialFunctions(
            tested.specialFunctions(),
            reference.specialFunctions(),
            chosen.get(KernelFamily.SPECIAL_FUNCTIONS)),
        new CheckedImplicitUpdates(
            tested.implicitUpdates(),
            reference.implicitUpdates(),
            chosen.get(KernelFamily.IMPLICIT_UPDATES)),
        new CheckedMatrixOps(
            tested.matrixOps(), reference.matrixOps(), chosen.get(KernelFamily.MATRIX_OPS)));
  }
}
