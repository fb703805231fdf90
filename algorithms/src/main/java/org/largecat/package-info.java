/**
 * Small helpers that the algorithms, the benchmarks and the command share: enum constants named on
 * the command line ({@link org.largecat.Labelled}) and running a batch of tasks on a pool ({@link
 * org.largecat.Parallel}). It imports nothing else of largecat.
 */
package org.largecat;
