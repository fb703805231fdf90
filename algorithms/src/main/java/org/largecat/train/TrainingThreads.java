package org.largecat.train;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntConsumer;
import org.largecat.Parallel;

/**
 * The daemon threads the sampled and double-sum trainers run their phases on: one task per thread,
 * all awaited. With one thread there is no pool and the single task runs on the caller's thread.
 */
public final class TrainingThreads implements AutoCloseable {
  private final int threads;
  private final ExecutorService pool;

  /** Starts {@code threads} daemon threads, or none when there is one. */
  public TrainingThreads(int threads) {
    this.threads = threads;
    pool =
        threads > 1
            ? Executors.newFixedThreadPool(
                threads,
                runnable -> {
                  Thread t = new Thread(runnable, "largecat-train");
                  t.setDaemon(true);
                  return t;
                })
            : null;
  }

  /** How many threads run each phase. */
  public int count() {
    return threads;
  }

  /**
   * Where thread {@code thread}'s contiguous share of {@code items} items starts; thread {@link
   * #count()} gives the end.
   */
  public int shareStart(int items, int thread) {
    return (int) ((long) items * thread / threads);
  }

  /** A phase that runs {@code task} once for each thread index, built once and run each step. */
  public List<Callable<Void>> phase(IntConsumer task) {
    List<Callable<Void>> phase = new ArrayList<>(threads);
    for (int t = 0; t < threads; t++) {
      int thread = t;
      phase.add(
          () -> {
            task.accept(thread);
            return null;
          });
    }
    return List.copyOf(phase);
  }

  /** Runs every task of the phase and waits for them; a task's exception is rethrown. */
  public void run(List<Callable<Void>> phase) {
    if (pool == null) {
      try {
        phase.get(0).call();
      } catch (Exception e) {
        throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
      }
      return;
    }
    Parallel.invokeAll(pool, phase, "training");
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
