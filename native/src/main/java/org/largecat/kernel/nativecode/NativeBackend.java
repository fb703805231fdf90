package org.largecat.kernel.nativecode;

import org.largecat.kernel.BackendUnavailableException;
import org.largecat.kernel.KernelBackend;
import org.largecat.kernel.KernelFamilies;

/**
 * The native backend: C kernels in liblargecat, built by the Maven build with gcc and called
 * through the Foreign Function and Memory API. This class holds no native state: {@link #load()}
 * first asks {@link NativeLibrary} whether the library loaded here, and only then creates the
 * families, whose classes bind the kernels when they initialise.
 */
public final class NativeBackend implements KernelBackend {

  @Override
  public String name() {
    return "native";
  }

  @Override
  public KernelFamilies load() {
    NativeLibrary.require();
    try {
      return new KernelFamilies(
          new NativeVectorOps(), new NativeSpecialFunctions(), new NativeImplicitUpdates(), null);
    } catch (ExceptionInInitializerError e) {
      if (e.getCause() instanceof BackendUnavailableException missingKernel) {
        throw missingKernel;
      }
      throw e;
    }
  }
}
