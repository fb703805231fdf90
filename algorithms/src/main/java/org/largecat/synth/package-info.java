/**
 * Synthetic correlated categorical data (synthetic-categorical-data, model (1)): the latent model,
 * its fits by variational EM and the paper's alternatives (Laplace, importance sampling, beta
 * prior), generation of synthetic users and the fidelity report. It imports only the kernel SPI.
 */
package org.largecat.synth;
