/**
 * The {@code largecat} command: one class per command ({@code train}, {@code tune}, {@code
 * evaluate}, {@code predict}, {@code data}, {@code cavi}, {@code synth}, {@code reproduce}, {@code
 * kernels}, {@code bench}) behind {@link org.largecat.cli.Largecat}. It imports the algorithms, the
 * kernel SPI, {@code bench}, {@code experiments} and {@code prepare}, never a backend; none imports
 * it.
 */
package org.largecat.cli;
