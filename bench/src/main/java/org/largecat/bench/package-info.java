/**
 * The JMH suite: a benchmark per kernel family and per trainer, each with a {@code backend}
 * parameter checked in its fork, the fixed profiles of {@code largecat bench --profile}, and the
 * reading of JMH results for {@code largecat bench compare}. It imports the algorithms and the
 * kernel SPI, never a backend; only the command imports it.
 */
package org.largecat.bench;
