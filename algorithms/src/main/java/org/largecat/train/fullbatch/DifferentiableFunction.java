package org.largecat.train.fullbatch;

/** A smooth function of n variables that {@link Lbfgs} minimises. */
@FunctionalInterface
public interface DifferentiableFunction {

  /** Returns f(x) and writes ∇f(x) into {@code gradient} (as long as x); x is not changed. */
  double valueAndGradient(double[] x, double[] gradient);
}
