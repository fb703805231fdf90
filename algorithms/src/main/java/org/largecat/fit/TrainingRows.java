package org.largecat.fit;

import java.util.function.DoubleSupplier;
import org.largecat.kernel.Kernels;
import org.largecat.model.ScoreModel;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerSpec;

/**
 * The rows a {@link Fitter} trains on, wherever they live: in this JVM's memory ({@link
 * Fitter#fit(org.largecat.data.Dataset)}) or in the partitions of a cluster (the {@code spark}
 * module). The fitter owns the run — method, sizes, initialisation, what the stopping rule watches
 * — and asks the rows only for what depends on where they are.
 */
public interface TrainingRows {
  /** Number of rows N. */
  long rows();

  /** Number of classes K. */
  int classes();

  /** Number of features D. */
  int columns();

  /**
   * A trainer that fits {@code model} in place on these rows as {@code spec} says.
   *
   * @throws IllegalArgumentException when these rows cannot be trained with the spec's method
   */
  Trainer trainer(ScoreModel model, TrainerSpec spec, Kernels kernels);

  /**
   * The exact mean log-likelihood of {@code model} on a fixed sample of {@code count} of these rows
   * drawn with {@code seed} (all of them when {@code count} ≥ N), computed afresh each time it is
   * asked, as the model changes in place.
   */
  Watch watch(ScoreModel model, int count, long seed, int threads, Kernels kernels);

  /**
   * These rows split in two with {@code seed}: the rows kept, then the {@code fraction} held out.
   */
  TrainingRows[] holdOut(double fraction, long seed);

  /** A mean log-likelihood the stopping rule watches, and how many rows it is over. */
  interface Watch extends DoubleSupplier, AutoCloseable {
    /** The rows watched. */
    int rows();

    /** Releases what the watch holds (a cached sample). */
    @Override
    default void close() {}
  }
}
