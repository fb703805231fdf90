/**
 * The shared face of the trainers: {@link org.largecat.train.Trainer}, {@link
 * org.largecat.train.Trainers}, {@link org.largecat.train.Method}, {@link
 * org.largecat.train.TrainingOptions}, step-size schedules and the learning-rate search. {@code
 * train.sampled} and {@code train.doublesum} import it, never the reverse: each provides a {@link
 * org.largecat.train.TrainerProvider} found through ServiceLoader.
 */
package org.largecat.train;
