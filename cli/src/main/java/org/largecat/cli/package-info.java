/**
 * The {@code largecat} command: one class per command ({@code train}, {@code tune}, {@code evaluate},
 * {@code predict}, {@code data}, {@code cavi}, {@code synth}, {@code reproduce}, {@code kernels},
 * {@code bench}) behind {@link org.largecat.cli.Largecat}. It imports every other package of the
 * project; none imports it.
 */
package org.largecat.cli;
