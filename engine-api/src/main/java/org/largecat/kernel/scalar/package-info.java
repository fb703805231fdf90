/**
 * The scalar backend: every kernel as a plain loop with double accumulation, the reference every
 * other backend is tested against. Faster backends subclass its families and override only the
 * kernels they speed up.
 */
package org.largecat.kernel.scalar;
