/**
 * The experiments of {@code largecat reproduce}: one class per table or figure of the papers, each
 * printing our figures beside the paper's and writing CSV, JSON and plots. It imports the
 * algorithms and {@code org.largecat.prepare}; only the command imports it.
 */
package org.largecat.experiments;
