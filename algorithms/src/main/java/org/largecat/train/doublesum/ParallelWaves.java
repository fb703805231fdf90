package org.largecat.train.doublesum;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.largecat.Parallel;

/**
 * Runs a block of work items, each reading and writing a few class rows, with the result of running
 * them one after another in block order, using all threads. Items are grouped into waves: an item's
 * wave is one more than the last wave of any earlier item that shares one of its rows, so the items
 * of a wave touch disjoint rows and every item runs after all earlier items it depends on. Each
 * wave is split into contiguous slices, one per thread (run inline when the wave is too small to
 * pay for the hand-off). The result does not depend on the thread count unless a slice's work does.
 */
final class ParallelWaves implements AutoCloseable {
  /** Work (in multiply-adds) below which a wave runs on the calling thread. */
  private static final double PARALLEL_WORK = 50_000;

  /** The work of one slice [from, to) of the wave order, on thread {@code thread}. */
  interface Slice {
    void run(int thread, int[] order, int from, int to);
  }

  private final int threads;
  private final ExecutorService pool;
  private final int[] lastWave;
  private final int[] lastStamp;
  private int stamp;
  private int[] wave = new int[0];
  private int[] order = new int[0];
  private int[] waveStart = new int[1];

  ParallelWaves(int threads, int classes) {
    this.threads = threads;
    this.lastWave = new int[classes];
    this.lastStamp = new int[classes];
    this.pool =
        threads > 1
            ? Executors.newFixedThreadPool(
                threads,
                runnable -> {
                  Thread t = new Thread(runnable, "largecat-doublesum");
                  t.setDaemon(true);
                  return t;
                })
            : null;
  }

  int threads() {
    return threads;
  }

  /**
   * Runs {@code items} items, item j touching rows[rowStart[j] .. rowStart[j + 1]), each of {@code
   * itemWork} multiply-adds.
   */
  void run(int items, int[] rows, int[] rowStart, double itemWork, Slice slice) {
    if (wave.length < items) {
      wave = new int[items];
      order = new int[items];
      waveStart = new int[items + 2];
    }
    if (++stamp == Integer.MAX_VALUE) {
      Arrays.fill(lastStamp, 0);
      stamp = 1;
    }
    int waves = 0;
    for (int j = 0; j < items; j++) {
      int w = 0;
      for (int r = rowStart[j]; r < rowStart[j + 1]; r++) {
        if (lastStamp[rows[r]] == stamp) {
          w = Math.max(w, lastWave[rows[r]] + 1);
        }
      }
      for (int r = rowStart[j]; r < rowStart[j + 1]; r++) {
        lastStamp[rows[r]] = stamp;
        lastWave[rows[r]] = w;
      }
      wave[j] = w;
      waves = Math.max(waves, w + 1);
    }
    // Counting sort by wave, stable, so each wave keeps block order.
    Arrays.fill(waveStart, 0, waves + 1, 0);
    for (int j = 0; j < items; j++) {
      waveStart[wave[j] + 1]++;
    }
    for (int w = 0; w < waves; w++) {
      waveStart[w + 1] += waveStart[w];
    }
    int[] next = Arrays.copyOf(waveStart, waves);
    for (int j = 0; j < items; j++) {
      order[next[wave[j]]++] = j;
    }
    for (int w = 0; w < waves; w++) {
      int from = waveStart[w];
      int to = waveStart[w + 1];
      if (pool == null || to - from < 2 * threads || (to - from) * itemWork < PARALLEL_WORK) {
        slice.run(0, order, from, to);
      } else {
        runSplit(slice, from, to);
      }
    }
  }

  private void runSplit(Slice slice, int from, int to) {
    List<Callable<Void>> tasks = new ArrayList<>(threads);
    for (int r = 0; r < threads; r++) {
      int thread = r;
      int lo = from + (int) ((long) (to - from) * r / threads);
      int hi = from + (int) ((long) (to - from) * (r + 1) / threads);
      tasks.add(
          () -> {
            slice.run(thread, order, lo, hi);
            return null;
          });
    }
    Parallel.invokeAll(pool, tasks, "training");
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
