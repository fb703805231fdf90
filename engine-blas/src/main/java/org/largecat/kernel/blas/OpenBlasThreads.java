package org.largecat.kernel.blas;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One OpenBLAS thread a call, unless the environment sets a count: largecat runs its matrix
 * products on its own threads, and OpenBLAS's threads inside each of them compete with those for
 * the same cores, which slowed the full-batch solver's small blocks several-fold. OpenBLAS reads
 * the count from these variables when it loads.
 */
final class OpenBlasThreads {
  private OpenBlasThreads() {}

  /** The variables OpenBLAS takes its thread count from, in its order. */
  static final List<String> VARIABLES =
      List.of("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS");

  /**
   * Sets the first OpenBLAS among {@code libraries} to one thread when {@code environment} sets
   * none of {@link #VARIABLES}; returns what was done, for the backend's description, or empty when
   * none is OpenBLAS.
   */
  static Optional<String> oneUnlessSet(List<Path> libraries, Map<String, String> environment) {
    Optional<String> given = VARIABLES.stream().filter(environment::containsKey).findFirst();
    for (Path library : libraries) {
      Optional<String> done = oneUnlessSet(library, given);
      if (done.isPresent()) {
        return done;
      }
    }
    return Optional.empty();
  }

  /**
   * " (configuration; threads)" of the first OpenBLAS among {@code libraries} once {@link
   * #oneUnlessSet} has run on the process's environment, or "" when none is OpenBLAS.
   */
  static String describedAfterThreads(List<Path> libraries) {
    Optional<String> threads = oneUnlessSet(libraries, System.getenv());
    return OpenBlasConfig.describe(libraries)
        .map(c -> " (" + c + threads.map(t -> "; " + t).orElse("") + ")")
        .orElse("");
  }

  private static Optional<String> oneUnlessSet(Path library, Optional<String> given) {
    try (Arena arena = Arena.ofConfined()) {
      SymbolLookup symbols = SymbolLookup.libraryLookup(library, arena); // the already loaded copy
      Optional<MemorySegment> set = symbols.find("openblas_set_num_threads");
      if (set.isEmpty()) {
        return Optional.empty();
      }
      if (given.isPresent()) {
        return Optional.of("threads as " + given.get() + " says");
      }
      Linker.nativeLinker()
          .downcallHandle(set.get(), FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT))
          .invokeExact(1);
      return Optional.of(
          "set to one thread a call, as largecat's own threads split the work (OPENBLAS_NUM_THREADS"
              + " sets another count)");
    } catch (IllegalArgumentException e) { // cannot be opened by its path after all
      return Optional.empty();
    } catch (Throwable e) {
      throw new IllegalStateException("setting " + library + "'s OpenBLAS threads failed", e);
    }
  }
}
