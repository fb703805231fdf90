/**
 * The {@code blas} and {@code jblas} backends: matrix ops (and netlib's long double dot) on a
 * native BLAS, through dev.ludovic.netlib on the system OpenBLAS or through jblas's bundled
 * library; the other kernels are inherited from the scalar reference. It imports the SPI and the
 * scalar reference.
 */
package org.largecat.kernel.blas;
