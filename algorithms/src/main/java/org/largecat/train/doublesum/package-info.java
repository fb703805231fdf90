/**
 * The double-sum softmax trainers of unbiased-scalable-softmax (Eqs. 5-8): vanilla SGD, U-max,
 * Implicit SGD on one pair or a mini-batch, and U-max on Raman et al.'s Eq. 8. It imports {@code
 * train}, never {@code train.sampled}.
 */
package org.largecat.train.doublesum;
