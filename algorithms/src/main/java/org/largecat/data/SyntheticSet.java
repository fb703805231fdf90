package org.largecat.data;

/**
 * A generated dataset and the linear softmax model that generated it: p(y = k | x) ∝ exp(W_k · x +
 * b_k), W row-major K x D.
 */
public record SyntheticSet(Dataset data, float[] weights, double[] biases) {}
