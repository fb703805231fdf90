package org.largecat.kernel.blas;

import java.nio.file.Path;
import java.util.List;
import org.jblas.NativeBlas;
import org.jblas.util.Logger;
import org.largecat.kernel.BackendUnavailableException;
import org.largecat.kernel.KernelBackend;
import org.largecat.kernel.KernelFamilies;

/**
 * The {@code jblas} backend: jblas, whose jar bundles its own native library (a DYNAMIC_ARCH
 * OpenBLAS with LAPACK), so it needs nothing from the system but libgfortran. It implements the
 * matrix family only: jblas copies every array argument whole across JNI, which a vector kernel
 * cannot afford.
 */
public final class JblasBackend implements KernelBackend {

  @Override
  public String name() {
    return "jblas";
  }

  @Override
  public KernelFamilies load() {
    // jblas prints its own messages to standard error (its load failures, every temporary file it
    // deletes at exit); largecat reports what matters in its log instead.
    Logger.getLogger().setLevel(Logger.ERROR + 1);
    if (!SystemLibraries.missing(List.of("libgfortran.so.5")).isEmpty()) {
      throw new BackendUnavailableException(
          "libgfortran.so.5, which jblas's bundled library needs, is not installed",
          "apt-get install libgfortran5 (Debian)");
    }
    try {
      // jblas swallows a failure to load its library, printing to stderr; the first call tells.
      NativeBlas.ddot(1, new double[] {1}, 0, 1, new double[] {1}, 0, 1);
    } catch (LinkageError e) {
      throw new BackendUnavailableException(
          "jblas could not load its bundled native library: " + e.getMessage(),
          "jblas 1.2.5 bundles libraries for Linux (amd64, i386, aarch64, ppc64le), macOS and Windows; on Linux"
              + " they need libgfortran5 (Debian: apt-get install libgfortran5)",
          e);
    }
    return new KernelFamilies(null, null, null, new JblasMatrixOps(), describe());
  }

  private static String describe() {
    List<Path> libraries = MappedLibraries.matching(name -> name.equals("libjblas.so"));
    if (libraries.isEmpty()) {
      return "its bundled native library (where is unknown without /proc/self/maps)";
    }
    return "its bundled native library "
        + libraries
        + OpenBlasThreads.describedAfterThreads(libraries);
  }
}
