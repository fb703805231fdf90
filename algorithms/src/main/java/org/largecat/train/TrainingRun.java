package org.largecat.train;

import java.util.function.DoubleSupplier;

/**
 * A timed run of a {@link Trainer}: how long it took, the bound averaged over its last epoch of
 * iterations (a single iteration's estimate is too noisy to report), and why it stopped.
 *
 * @param iterations the iterations run
 * @param seconds wall-clock time of the iterations
 * @param secondsPerEpoch seconds per ⌈N/|B|⌉ iterations
 * @param lastEpochBound the mean of the per-iteration estimates over the last (possibly partial)
 *     epoch
 * @param stoppedBecause why the run ended
 * @param lastImprovement the relative improvement of the last whole epoch's watched value (its mean
 *     bound, or what the rule was told to watch) on the best epoch before, or NaN when the run had
 *     fewer than two whole epochs
 * @param lastWatched the value the rule watched after the last epoch (its mean bound, or what the
 *     rule was told to watch), or NaN for a run of fixed length, which watches nothing
 */
public record TrainingRun(
    int iterations,
    double seconds,
    double secondsPerEpoch,
    double lastEpochBound,
    Stop stoppedBecause,
    double lastImprovement,
    double lastWatched) {

  /** Why a run ended. */
  public enum Stop {
    /** It ran the iterations (or epochs) it was told to. */
    ITERATIONS,
    /** Its {@link StoppingRule} saw no progress for the rule's patience. */
    CONVERGED,
    /** It reached the rule's most epochs before converging. */
    MAX_EPOCHS,
    /** It reached the rule's time limit before converging. */
    MAX_SECONDS,
    /**
     * A full-batch solver's line search found no better point while the gradient was not yet small
     * ({@code org.largecat.train.fullbatch}); the model is the best point found.
     */
    NO_PROGRESS
  }

  /** Whether the stopping rule saw it converge; false for a capped run, null for a fixed one. */
  public Boolean converged() {
    return stoppedBecause == Stop.ITERATIONS ? null : stoppedBecause == Stop.CONVERGED;
  }

  /** Epochs run, whole or not. */
  public double epochs(int iterationsPerEpoch) {
    return iterations / (double) iterationsPerEpoch;
  }

  /** Told of the progress now and then. */
  public interface Progress {
    void report(int iteration, int iterations, double epochBound, double seconds);
  }

  /** Told at the end of each epoch of a run under a {@link StoppingRule}. */
  public interface EpochProgress {
    /**
     * @param watched what the rule watches: the epoch's mean bound, or the held-out objective
     * @param improvement relative to the best epoch before, NaN for the first
     */
    void epoch(int epoch, double watched, double improvement, double seconds);

    /** The rule divided the step size on a plateau, the {@code reductions}-th time. */
    default void stepReduced(int epoch, int reductions) {}
  }

  /**
   * Runs {@code iterations} iterations, telling {@code progress} about every {@code everySeconds}
   * and at the end.
   *
   * @throws TrainingDivergedException when an iteration's objective is NaN or infinite
   */
  public static TrainingRun run(
      Trainer trainer, int iterations, double everySeconds, Progress progress) {
    Steps steps = new Steps(trainer);
    long lastReport = steps.start;
    for (int t = 1; t <= iterations; t++) {
      steps.next();
      long now = System.nanoTime();
      if ((now - lastReport) * 1e-9 >= everySeconds || t == iterations) {
        progress.report(t, iterations, steps.epochMean(), (now - steps.start) * 1e-9);
        lastReport = now;
      }
    }
    return steps.result(Stop.ITERATIONS, Double.NaN, Double.NaN);
  }

  /**
   * Runs whole epochs until {@code rule} stops the run on the epoch's mean bound, telling {@code
   * progress} after each.
   *
   * @throws TrainingDivergedException when an iteration's objective is NaN or infinite
   */
  public static TrainingRun until(Trainer trainer, StoppingRule rule, EpochProgress progress) {
    return until(trainer, rule, null, progress);
  }

  /**
   * As {@link #until(Trainer, StoppingRule, EpochProgress)}, but the rule watches {@code heldOut}
   * after each epoch (e.g. the mean log-likelihood of a held-out slice), or the epoch's mean bound
   * when it is null.
   */
  public static TrainingRun until(
      Trainer trainer, StoppingRule rule, DoubleSupplier heldOut, EpochProgress progress) {
    Steps steps = new Steps(trainer);
    StoppingRule.Watch watch = rule.watch();
    double watched = Double.NaN;
    for (int epoch = 1; epoch <= rule.maxEpochs(); epoch++) {
      for (int i = 0; i < steps.perEpoch; i++) {
        steps.next();
      }
      watched = heldOut == null ? steps.epochMean() : heldOut.getAsDouble();
      double improvement = watch.epoch(watched);
      double seconds = (System.nanoTime() - steps.start) * 1e-9;
      progress.epoch(epoch, watched, improvement, seconds);
      if (watch.converged()) {
        if (!watch.reduceStep()) {
          return steps.result(Stop.CONVERGED, improvement, watched);
        }
        trainer.scaleStepSize(1 / StoppingRule.STEP_DIVISOR);
        progress.stepReduced(epoch, watch.reductions());
      }
      if (seconds >= rule.maxSeconds() && epoch < rule.maxEpochs()) {
        return steps.result(Stop.MAX_SECONDS, improvement, watched);
      }
    }
    return steps.result(Stop.MAX_EPOCHS, watch.lastImprovement(), watched);
  }

  /** The iterations of one run: each objective checked, and its mean over the current epoch. */
  private static final class Steps {
    final Trainer trainer;
    final int perEpoch;
    final long start = System.nanoTime();
    int done;
    double sum;
    int count;

    Steps(Trainer trainer) {
      this.trainer = trainer;
      this.perEpoch = trainer.iterationsPerEpoch();
    }

    void next() {
      if (done % perEpoch == 0) {
        sum = 0;
        count = 0;
      }
      double objective = trainer.step();
      done++;
      if (!Double.isFinite(objective)) {
        throw new TrainingDivergedException(
            "the training objective became "
                + objective
                + " at iteration "
                + done
                + " (epoch "
                + ((done - 1) / perEpoch + 1)
                + "); the model diverged and must not be used");
      }
      sum += objective;
      count++;
    }

    double epochMean() {
      return sum / count;
    }

    TrainingRun result(Stop stop, double improvement, double watched) {
      double seconds = (System.nanoTime() - start) * 1e-9;
      return new TrainingRun(
          done, seconds, seconds / done * perEpoch, epochMean(), stop, improvement, watched);
    }
  }
}
