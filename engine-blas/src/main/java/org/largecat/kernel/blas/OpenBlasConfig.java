package org.largecat.kernel.blas;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a loaded OpenBLAS says about itself through its own functions: version, build and the CPU
 * core it chose (openblas_get_config), and its thread count. The core matters: Debian's 0.3.21
 * takes CPUs newer than itself for older ones (AVX2 or SSE3 kernels on an AVX-512 CPU) unless
 * OPENBLAS_CORETYPE says otherwise before it loads.
 */
final class OpenBlasConfig {
  private OpenBlasConfig() {}

  /**
   * The first answer among the libraries, e.g. "OpenBLAS 0.3.21 ... DYNAMIC_ARCH ... Haswell ..., 1
   * thread"; empty if none of them is OpenBLAS.
   */
  static Optional<String> describe(List<Path> libraries) {
    return libraries.stream().map(OpenBlasConfig::describe).flatMap(Optional::stream).findFirst();
  }

  private static Optional<String> describe(Path library) {
    Linker linker = Linker.nativeLinker();
    try (Arena arena = Arena.ofConfined()) {
      SymbolLookup symbols = SymbolLookup.libraryLookup(library, arena); // the already loaded copy
      Optional<MemorySegment> config = symbols.find("openblas_get_config");
      Optional<MemorySegment> threads = symbols.find("openblas_get_num_threads");
      if (threads.isEmpty()) {
        return Optional.empty();
      }
      int threadCount =
          (int)
              linker
                  .downcallHandle(threads.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT))
                  .invokeExact();
      String threadText = threadCount + (threadCount == 1 ? " thread" : " threads");
      if (config.isEmpty()) {
        return Optional.of("OpenBLAS, " + threadText);
      }
      MemorySegment text =
          (MemorySegment)
              linker
                  .downcallHandle(config.get(), FunctionDescriptor.of(ValueLayout.ADDRESS))
                  .invokeExact();
      return Optional.of(
          text.reinterpret(Integer.MAX_VALUE).getString(0).strip() + ", " + threadText);
    } catch (IllegalArgumentException e) { // cannot be opened by its path after all
      return Optional.empty();
    } catch (Throwable e) {
      throw new IllegalStateException(
          "asking " + library + " for its OpenBLAS configuration failed", e);
    }
  }
}
