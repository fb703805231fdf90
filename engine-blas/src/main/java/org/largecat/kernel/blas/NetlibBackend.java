package org.largecat.kernel.blas;

import dev.ludovic.netlib.blas.BLAS;
import dev.ludovic.netlib.blas.NativeBLAS;
import dev.ludovic.netlib.lapack.LAPACK;
import dev.ludovic.netlib.lapack.NativeLAPACK;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
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
  private static final List<String> SYSTEM_LIBRARIES = List.of("libblas.so.3", "liblapack.so.3");
  private static final String INSTALL =
      "install OpenBLAS for native speed (Debian: apt-get install libopenblas0)";

  /** netlib's own log; held here because java.util.logging keeps loggers only weakly. */
  private static final Logger NETLIB_LOG = Logger.getLogger("dev.ludovic.netlib");

  @Override
  public String name() {
    return "blas";
  }

  @Override
  public KernelFamilies load() {
    List<String> missing = SystemLibraries.missing(SYSTEM_LIBRARIES);
    if (!missing.isEmpty()) {
      // netlib's JNI shim would print its failed dlopen to standard error; our warning says it
      // instead.
      System.setProperty("dev.ludovic.netlib.blas.allowNative", "false");
      System.setProperty("dev.ludovic.netlib.lapack.allowNative", "false");
    }
    List<String> netlibSaid = new ArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            netlibSaid.add(
                r.getMessage()
                    + (r.getThrown() == null ? "" : " (" + r.getThrown().getMessage() + ")"));
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    BLAS blas;
    LAPACK lapack;
    boolean useParentHandlers = NETLIB_LOG.getUseParentHandlers();
    NETLIB_LOG.setUseParentHandlers(false);
    NETLIB_LOG.addHandler(capture);
    try {
      blas = BLAS.getInstance();
      lapack = LAPACK.getInstance();
    } catch (LinkageError e) {
      throw new BackendUnavailableException(
          "dev.ludovic.netlib failed to initialise: " + e,
          "put dev.ludovic.netlib:blas and :lapack (engine-blas depends on them) on the class path",
          e);
    } finally {
      NETLIB_LOG.removeHandler(capture);
      NETLIB_LOG.setUseParentHandlers(useParentHandlers);
    }
    boolean isNative = blas instanceof NativeBLAS && lapack instanceof NativeLAPACK;
    String warning =
        isNative
            ? null
            : "runs netlib's Java fallback ("
                + (missing.isEmpty()
                    ? "netlib: " + String.join("; ", netlibSaid)
                    : String.join(" and ", missing) + " not found")
                + "); "
                + INSTALL;
    return new KernelFamilies(
        new NetlibVectorOps(blas),
        null,
        null,
        new NetlibMatrixOps(blas, lapack),
        describe(blas, lapack),
        warning);
  }

  /** Which implementation netlib chose and, when native, which library files the process mapped. */
  private static String describe(BLAS blas, LAPACK lapack) {
    String classes =
        "netlib " + blas.getClass().getSimpleName() + " + " + lapack.getClass().getSimpleName();
    if (!(blas instanceof NativeBLAS) || !(lapack instanceof NativeLAPACK)) {
      return classes + " (netlib's Java fallback)";
    }
    List<Path> libraries =
        MappedLibraries.matching(
            name ->
                (name.contains("blas") || name.contains("lapack"))
                    && !name.contains("netlib")
                    && !name.contains("jblas"));
    if (libraries.isEmpty()) {
      return classes + " (native; which library is unknown without /proc/self/maps)";
    }
    return classes + " on " + libraries + OpenBlasThreads.describedAfterThreads(libraries);
  }
}
