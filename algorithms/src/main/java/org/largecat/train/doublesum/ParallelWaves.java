package org.largecat.train.doublesum;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.largecat.train.TrainingThreads;

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

  private final TrainingThreads threads;

  /** A wave's slice for each thread, of the wave being split: order[splitFrom, splitTo). */
  private final List<Callable<Void>> splitPhase;

  private Slice splitSlice;
  private int splitFrom;
  private int splitTo;
  private final int[] lastWave;
  private final int[] lastStamp;
  private int stamp;
  private int[] wave = new int[0];
  private int[] order = new int[0];
  private int[] waveStart = new int[1];

  ParallelWaves(int threads, int classes) {
    this.threads = new TrainingThreads(threads);
    this.splitPhase = this.threads.phase(this::runShare);
    this.lastWave = new int[classes];
    this.lastStamp = new int[classes];
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
      int count = threads.count();
      if (count == 1 || to - from < 2 * count || (to - from) * itemWork < PARALLEL_WORK) {
        slice.run(0, order, from, to);
      } else {
        splitSlice = slice;
        splitFrom = from;
        splitTo = to;
        threads.run(splitPhase);
      }
    }
  }

  private void runShare(int thread) {
    int items = splitTo - splitFrom;
    splitSlice.run(
        thread,
        order,
        splitFrom + threads.shareStart(items, thread),
        splitFrom + threads.shareStart(items, thread + 1));
  }

  @Override
  public void close() {
    threads.close();
  }
}
