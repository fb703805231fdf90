/**
 * The library's face for a program: {@link org.largecat.fit.Fitter} fits a model to labelled rows
 * with the defaults of {@code largecat train}, and {@link org.largecat.fit.Classifier} scores it,
 * from many threads at once.
 */
package org.largecat.fit;
