package org.largecat.kernel.blas;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.util.List;

/**
 * Whether the dynamic loader finds shared libraries, asked before a JNI binding tries them:
 * netlib's and jblas's loaders print their own failures to standard error, so largecat asks first
 * and reports a missing library once, in its log, with the package that provides it.
 */
final class SystemLibraries {
  private SystemLibraries() {}

  /**
   * Those of {@code names} (sonames such as libblas.so.3) the loader cannot open; empty off Linux.
   */
  static List<String> missing(List<String> names) {
    if (!System.getProperty("os.name", "").startsWith("Linux")) {
      return List.of();
    }
    return names.stream().filter(name -> !loadable(name)).toList();
  }

  private static boolean loadable(String name) {
    try (Arena arena = Arena.ofConfined()) {
      SymbolLookup.libraryLookup(name, arena);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
