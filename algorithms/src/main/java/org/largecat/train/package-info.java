/**
 * The trainers' shared face: {@link org.largecat.train.Trainer}, {@link
 * org.largecat.train.Trainers} (the linear model's trainer of each method), {@link
 * org.largecat.train.Method}, {@link org.largecat.train.TrainerSpec} (the settings of each family
 * of trainers), step-size schedules, the stopping rule, and the learning-rate search. {@code
 * org.largecat.fit.Fitter} runs them.
 */
package org.largecat.train;
