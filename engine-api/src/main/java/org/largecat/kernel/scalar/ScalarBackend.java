package org.largecat.kernel.scalar;

import org.largecat.kernel.KernelBackend;
import org.largecat.kernel.KernelFamilies;

/**
 * The reference backend: plain loops, double accumulation, the most careful numerics. It implements
 * every family, runs everywhere, and every other backend is tested against it.
 */
public final class ScalarBackend implements KernelBackend {

  @Override
  public String name() {
    return "scalar";
  }

  @Override
  public KernelFamilies load() {
    return new KernelFamilies(
        new ScalarVectorOps(),
        new ScalarSpecialFunctions(),
        new ScalarImplicitUpdates(),
        new ScalarMatrixOps());
  }
}
