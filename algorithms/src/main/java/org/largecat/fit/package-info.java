/**
 * The library's face for a program: {@link org.largecat.fit.Fitter} fits a model to labelled rows
 * with the defaults of {@code largecat train}, and {@link org.largecat.fit.Classifier} scores it,
 * from many threads at once. {@link org.largecat.fit.Trainers} is the level below the fitter: the
 * step-wise trainer of a method, for a caller that runs the iterations itself.
 */
package org.largecat.fit;
