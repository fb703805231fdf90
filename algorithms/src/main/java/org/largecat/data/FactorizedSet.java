package org.largecat.data;

/**
 * A generated dataset and the rank-r softmax model that generated it: p(y = k | x) ∝ exp(u_k · h +
 * b_k), h = Σ_j x_j v_j, with V (D x r) and U (K x r) row-major.
 */
public record FactorizedSet(
    Dataset data, int rank, float[] inputs, float[] outputs, double[] biases) {}
