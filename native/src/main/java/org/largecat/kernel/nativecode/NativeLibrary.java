package org.largecat.kernel.nativecode;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.largecat.kernel.BackendUnavailableException;

/**
 * liblargecat loaded into this JVM, once, and the instruction-set build of its kernels this JVM
 * calls: the best this CPU runs (AVX-512, AVX2 or SSE2 on x86-64), or at most the one named by
 * {@code -Dlargecat.native.maxIsa}, for emulating an older machine. Kernels are bound as critical
 * downcalls that may take Java heap arrays in place, so no argument is copied.
 */
final class NativeLibrary {
  static final String MAX_ISA_PROPERTY = "largecat.native.maxIsa";
  private static final System.Logger LOG = System.getLogger(NativeLibrary.class.getPackageName());

  /** The loaded library, or why there is none. */
  private record State(
      SymbolLookup symbols, String isa, List<String> builds, BackendUnavailableException problem) {}

  private static final State STATE = load();

  private NativeLibrary() {}

  private static State load() {
    try {
      Path file = PackagedLibrary.extract(Host.current(), NativeLibrary.class::getResource);
      SymbolLookup symbols;
      try {
        symbols = SymbolLookup.libraryLookup(file, Arena.global());
      } catch (IllegalArgumentException e) {
        throw new BackendUnavailableException(
            "liblargecat could not be loaded: " + e.getMessage(),
            "rebuild largecat on this machine (./mvnw package)",
            e);
      } finally {
        // Once mapped, the library needs no file: deleting it now leaves none behind a killed run.
        try {
          Files.deleteIfExists(file);
        } catch (IOException e) {
          // Then it goes when the JVM exits, or at the next start after a kill.
        }
      }
      List<String> builds = Arrays.asList(callString(symbols, "largecat_isas").split(" "));
      int best = callInt(symbols, "largecat_best_runnable_isa");
      String isa = builds.get(Math.max(best, cap(builds)));
      LOG.log(
          System.Logger.Level.INFO,
          "largecat native backend: "
              + isa
              + " kernels of liblargecat (builds "
              + String.join(", ", builds)
              + "; this CPU runs "
              + String.join(", ", builds.subList(best, builds.size()))
              + ")");
      return new State(symbols, isa, builds, null);
    } catch (BackendUnavailableException e) {
      return new State(null, null, null, e);
    }
  }

  /** The index of the build named by the cap property, 0 (the best) without one. */
  private static int cap(List<String> builds) {
    String cap = System.getProperty(MAX_ISA_PROPERTY);
    if (cap == null || cap.isBlank()) {
      return 0;
    }
    int i = builds.indexOf(cap.trim());
    if (i < 0) {
      throw new BackendUnavailableException(
          MAX_ISA_PROPERTY + "=" + cap + " names no build of liblargecat",
          "set "
              + MAX_ISA_PROPERTY
              + " to one of "
              + String.join(", ", builds)
              + ", or leave it unset");
    }
    return i;
  }

  /** Throws why the library cannot be used here, if it cannot. */
  static void require() {
    if (STATE.problem() != null) {
      BackendUnavailableException p = STATE.problem();
      throw new BackendUnavailableException(p.getMessage(), p.fix(), p);
    }
  }

  /** The instruction-set build this JVM calls, e.g. "avx512". */
  static String isa() {
    require();
    return STATE.isa();
  }

  /** Every build in the library, best first. */
  static List<String> builds() {
    require();
    return STATE.builds();
  }

  /**
   * A downcall handle to the chosen build of a kernel, e.g. "dot_float" binds
   * largecat_dot_float_avx512.
   *
   * @throws BackendUnavailableException if the library lacks it (built from other sources than
   *     these classes)
   */
  static MethodHandle kernel(String name, FunctionDescriptor descriptor) {
    require();
    return Linker.nativeLinker()
        .downcallHandle(
            find(STATE.symbols(), "largecat_" + name + "_" + STATE.isa()),
            descriptor,
            Linker.Option.critical(true));
  }

  private static MemorySegment find(SymbolLookup symbols, String symbol) {
    return symbols
        .find(symbol)
        .orElseThrow(
            () ->
                new BackendUnavailableException(
                    "liblargecat has no "
                        + symbol
                        + ": it was built from other sources than these classes",
                    "rebuild largecat (./mvnw package)"));
  }

  /**
   * What a failed {@code invokeExact} threw, as an unchecked exception (downcalls throw nothing
   * checked).
   */
  static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException("native kernel call failed", t);
  }

  private static String callString(SymbolLookup symbols, String name) {
    MethodHandle h =
        Linker.nativeLinker()
            .downcallHandle(find(symbols, name), FunctionDescriptor.of(ValueLayout.ADDRESS));
    try {
      return ((MemorySegment) h.invokeExact()).reinterpret(Long.MAX_VALUE).getString(0);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static int callInt(SymbolLookup symbols, String name) {
    MethodHandle h =
        Linker.nativeLinker()
            .downcallHandle(find(symbols, name), FunctionDescriptor.of(ValueLayout.JAVA_INT));
    try {
      return (int) h.invokeExact();
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }
}
