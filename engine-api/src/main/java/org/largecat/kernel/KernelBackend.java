package org.largecat.kernel;

/**
 * A set of kernels found with {@link java.util.ServiceLoader}: scalar, simd, blas, native. A
 * backend implements some families and inherits the others from the best other backend.
 *
 * <p>Construction must be cheap and must not touch optional machinery (Vector API classes, native
 * libraries); {@link #load()} does that and is the one place a backend says it cannot run here.
 */
public interface KernelBackend {

  /** The name used by {@code -Dlargecat.backend}: lower case, no spaces. */
  String name();

  /**
   * Loads the kernels.
   *
   * @throws BackendUnavailableException if this machine or JVM cannot run them, saying why and how
   *     to fix it; any other exception is a real error and propagates
   */
  KernelFamilies load();
}
