/**
 * Special functions of one double with stated accuracy (log Phi, the inverse Mills ratio,
 * truncated-normal moments, logistic and Gumbel log-densities, Lambert W0, the Polya-Gamma mean),
 * the scalar reference the kernels apply over arrays. It imports nothing else of largecat.
 */
package org.largecat.special;
