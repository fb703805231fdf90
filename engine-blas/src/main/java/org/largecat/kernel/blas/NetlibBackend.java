package org.largecat.kernel.blas;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.NativeBLAS;
import dev.ludovic.netlib.lapack.LAPACK;
import dev.ludovic.netlib.lapack.NativeLAPACK;
import java.nio.file.Path;
import java.util.List;
import org.largecat.kernel.BackendUnavailableException;
import org.largecat.kernel.KernelBackend;
import org.largecat.kernel.KernelFamilies;

/**
 * The {@code blas} backend: dev.ludovic.netlib, which binds the system's BLAS and LAPACK
 * (libblas.so.3, liblapack.so.3: OpenBLAS once Debian's libopenblas0 is installed) through JNI, and
 * otherwise runs its own Java code. It implements the matrix family and the long dot products; its
 * detail names the native library it actually loaded, or says it fell back to Java.
 */
public final class NetlibBackend implements KernelBackend {

  @Override
  public String name() {
    return "blas";
  }

  @Override
  public KernelFamilies load() {
    BLAS blas;
    LAPACK lapack;
    try {
      blas = BLAS.getInstance();
      lapack = LAPACK.getInstance();
    } catch (LinkageError e) {
      throw new BackendUnavailableException("dev.ludovic.netlib failed to initialise: " + e,
          "put dev.ludovic.netlib:blas and :lapack (engine-blas depends on them) on the class path", e);
    }
    return new KernelFamilies(new NetlibVectorOps(blas), null, null, new NetlibMatrixOps(blas, lapack),
        describe(blas, lapack));
  }

  /** Which implementation netlib chose and, when native, which library files the process mapped. */
  private static String describe(BLAS blas, LAPACK lapack) {
    String classes = "netlib " + blas.getClass().getSimpleName() + " + " + lapack.getClass().getSimpleName();
    if (!(blas instanceof NativeBLAS) || !(lapack instanceof NativeLAPACK)) {
      return classes + ": netlib's Java fallback where no native libblas.so.3 or liblapack.so.3 loaded; for native"
          + " speed install OpenBLAS (Debian: apt-get install libopenblas0)";
    }
    List<Path> libraries = MappedLibraries.matching(
        name -> (name.contains("blas") || name.contains("lapack")) && !name.contains("netlib") && !name.contains("jblas"));
    if (libraries.isEmpty()) {
      return classes + " (native; which library is unknown without /proc/self/maps)";
    }
    return classes + " on " + libraries + OpenBlasConfig.describe(libraries).map(c -> " (" + c + ")").orElse("");
  }
}
