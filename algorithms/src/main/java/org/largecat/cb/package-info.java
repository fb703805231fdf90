/**
 * The categorical-from-binary models: IB-CAVI for CB-probit and CB-logit (App. D and E), the CBC
 * and CBM likelihoods, Bayesian model averaging between them, predictions, and the simulator of
 * App. G.1.1. It imports data, the kernel SPI and the special functions.
 */
package org.largecat.cb;
