package org.largecat.train;

/**
 * A timed run of a {@link Trainer}: how long it took and the bound averaged over its last epoch of
 * iterations (a single iteration's estimate is too noisy to report).
 *
 * @param iterations the iterations run
 * @param seconds wall-clock time of the iterations
 * @param secondsPerEpoch seconds per ⌈N/|B|⌉ iterations
 * @param lastEpochBound the mean of the per-iteration estimates over the last (possibly partial)
 *     epoch
 */
public record TrainingRun(
    int iterations, double seconds, double secondsPerEpoch, double lastEpochBound) {

  /** Told of the progress now and then. */
  public interface Progress {
    void report(int iteration, int iterations, double epochBound, double seconds);
  }

  /**
   * Runs {@code iterations} iterations, telling {@code progress} about every {@code everySeconds}
   * and at the end.
   *
   * @throws TrainingDivergedException when an iteration's objective is NaN or infinite
   */
  public static TrainingRun run(
      Trainer trainer, int iterations, double everySeconds, Progress progress) {
    int perEpoch = trainer.iterationsPerEpoch();
    long start = System.nanoTime();
    long lastReport = start;
    double sum = 0;
    int count = 0;
    for (int t = 1; t <= iterations; t++) {
      if ((t - 1) % perEpoch == 0) {
        sum = 0;
        count = 0;
      }
      double objective = trainer.step();
      if (!Double.isFinite(objective)) {
        throw new TrainingDivergedException(
            "the training objective became "
                + objective
                + " at iteration "
                + t
                + " (epoch "
                + ((t - 1) / perEpoch + 1)
                + "); the model diverged and must not be used");
      }
      sum += objective;
      count++;
      long now = System.nanoTime();
      if ((now - lastReport) * 1e-9 >= everySeconds || t == iterations) {
        progress.report(t, iterations, sum / count, (now - start) * 1e-9);
        lastReport = now;
      }
    }
    double seconds = (System.nanoTime() - start) * 1e-9;
    return new TrainingRun(iterations, seconds, seconds / iterations * perEpoch, sum / count);
  }
}
