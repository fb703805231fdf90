package org.largecat.train;

import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;

/**
 * Makes the trainers of some of the {@link Method}s. Each trainer package ({@code train.sampled},
 * {@code train.doublesum}) provides one as a service, so that this package, which they import,
 * imports none of them.
 */
public interface TrainerProvider {
  /** Whether this provider makes the trainer of {@code method}. */
  boolean trains(Method method);

  /** The model a run of {@code options} starts from on {@code train}. */
  LinearModel initialModel(Dataset train, TrainingOptions options);

  /** A trainer that fits {@code model} in place on {@code data} as {@code options} say. */
  Trainer create(Dataset data, LinearModel model, TrainingOptions options, Kernels kernels);
}
