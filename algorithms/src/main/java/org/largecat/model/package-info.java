/**
 * The linear model of the sampled and double-sum trainers (K x D float weights, double biases, a
 * link) and its versioned, checksummed file. It imports nothing else of largecat.
 */
package org.largecat.model;
