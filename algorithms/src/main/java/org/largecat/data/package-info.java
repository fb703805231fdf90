/**
 * Datasets in memory (dense rows or CSR, with the per-example gather-dot and scatter-axpy the
 * trainers call), their readers and writer for the Extreme Classification and LibSVM text formats
 * (a bad line is an error naming the file, line and reason), preprocessing, and generated sets with
 * known truth. It imports only the kernel SPI.
 */
package org.largecat.data;
