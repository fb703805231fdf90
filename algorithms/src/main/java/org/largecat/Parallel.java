package org.largecat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Runs a batch of tasks on a pool and waits for all of them. */
public final class Parallel {
  private Parallel() {}

  /**
   * Returns the tasks' results in order. A task's unchecked exception is rethrown as it was (a
   * checked one wrapped); an interrupt while waiting restores the flag and fails naming {@code
   * what}.
   */
  public static <T> List<T> invokeAll(
      ExecutorService pool, List<? extends Callable<T>> tasks, String what) {
    try {
      List<T> results = new ArrayList<>(tasks.size());
      for (Future<T> f : pool.invokeAll(tasks)) {
        results.add(f.get());
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + " interrupted", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    }
  }
}
