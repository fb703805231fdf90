/**
 * The {@code native} backend: the C kernels of {@code native/src/main/c}, built by the Maven build
 * into a library the jar carries, called through the Foreign Function and Memory API on the best
 * instruction-set build the CPU runs. It imports the SPI and the scalar reference.
 */
package org.largecat.kernel.nativecode;
