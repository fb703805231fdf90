/**
 * The trainers' shared face: {@link org.largecat.train.Trainer}, {@link org.largecat.train.Method},
 * {@link org.largecat.train.TrainerSpec} (the settings of each family of trainers), the thread pool
 * they share, step-size schedules, the stopping rule, and the learning-rate search. Its subpackages
 * import it, never the reverse; {@code org.largecat.fit.Trainers} makes a method's trainer and
 * {@code org.largecat.fit.Fitter} runs it.
 */
package org.largecat.train;
