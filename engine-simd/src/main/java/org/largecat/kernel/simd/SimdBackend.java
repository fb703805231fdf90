package org.largecat.kernel.simd;

import java.util.Optional;
import org.largecat.kernel.BackendUnavailableException;
import org.largecat.kernel.KernelBackend;
import org.largecat.kernel.KernelFamilies;

/**
 * The Vector API backend. This class names no Vector API type: it checks that the incubator module
 * is present before anything that links against it is loaded, so a JVM started without {@code
 * --add-modules jdk.incubator.vector} gets a reason and a fix instead of a linkage error.
 */
public final class SimdBackend implements KernelBackend {
  static final String MODULE = "jdk.incubator.vector";

  @Override
  public String name() {
    return "simd";
  }

  @Override
  public KernelFamilies load() {
    Optional<Module> module = ModuleLayer.boot().findModule(MODULE);
    if (module.isEmpty()) {
      throw new BackendUnavailableException(
          "the " + MODULE + " module is not in this JVM",
          "pass --add-modules " + MODULE + " to java (./largecat and the Maven build do)");
    }
    return SimdKernels.create();
  }
}
