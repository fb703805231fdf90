/**
 * The kernel SPI: the four families of batched kernels ({@link org.largecat.kernel.VectorOps},
 * {@link org.largecat.kernel.SpecialFunctions}, {@link org.largecat.kernel.ImplicitUpdates}, {@link
 * org.largecat.kernel.MatrixOps}), the per-family backend selection behind {@link
 * org.largecat.kernel.Kernels#get()}, and check mode. It imports only {@code org.largecat.special};
 * algorithms call kernels through this package alone, never through a backend's.
 */
package org.largecat.kernel;
