/**
 * The {@code simd} backend: kernels of every family on the Vector API ({@code
 * jdk.incubator.vector}). Only {@link org.largecat.kernel.simd.SimdBackend}'s probe runs without
 * that module, so a JVM started without {@code --add-modules jdk.incubator.vector} reports the
 * backend unavailable instead of failing to link. It imports the SPI, the scalar reference and the
 * special functions.
 */
package org.largecat.kernel.simd;
