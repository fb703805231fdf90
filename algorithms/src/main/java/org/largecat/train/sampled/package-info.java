/**
 * The sampled trainers on one machinery ({@link org.largecat.train.sampled.SampledTrainer}): the
 * augment-and-reduce bounds (A&R Algorithms 1 and 2), one-vs-each, exact softmax, noise-contrastive
 * estimation and sampled softmax, with their class samplers. It imports {@code train}, never {@code
 * train.doublesum}.
 */
package org.largecat.train.sampled;
