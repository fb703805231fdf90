/**
 * Exact evaluation of a linear model: mean log-likelihood, accuracy, top-k and per-class
 * probabilities, with probit and logistic likelihoods from a one-dimensional quadrature (A&R Eq.
 * 5). It imports data, model, the kernel SPI and the special functions.
 */
package org.largecat.eval;
