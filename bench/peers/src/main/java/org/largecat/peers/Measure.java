package org.largecat.peers;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/** The two timings every library gets, the same way: a batch pass and one example at a time. */
final class Measure {
  private Measure() {}

  /** Sink for results, so no call is dead code. */
  static volatile long sink;

  /**
   * Examples per second of {@code pass} (one call scores all {@code rows} rows), one figure per
   * repetition, after at least {@code warmupSeconds} of warm-up passes.
   */
  static double[] batchThroughput(Runnable pass, int rows, int reps, double warmupSeconds) {
    long warmEnd = System.nanoTime() + (long) (warmupSeconds * 1e9);
    int warm = 0;
    while (warm < 3 || System.nanoTime() < warmEnd) {
      pass.run();
      warm++;
    }
    double[] out = new double[reps];
    for (int r = 0; r < reps; r++) {
      long t0 = System.nanoTime();
      pass.run();
      out[r] = rows / ((System.nanoTime() - t0) * 1e-9);
    }
    return out;
  }

  /**
   * The median latency in µs of {@code call} over {@code calls} timed calls (argument i in [0,
   * calls) picks the example), one median per repetition, each after {@code calls} untimed calls.
   */
  static double[] latencyP50(IntUnaryOperator call, int calls, int reps, int warmupRounds) {
    long acc = 0;
    for (int w = 0; w < warmupRounds; w++) {
      for (int i = 0; i < calls; i++) {
        acc += call.applyAsInt(i);
      }
    }
    double[] out = new double[reps];
    long[] times = new long[calls];
    for (int r = 0; r < reps; r++) {
      for (int i = 0; i < calls; i++) {
        acc += call.applyAsInt(i); // the untimed round before each timed one
      }
      for (int i = 0; i < calls; i++) {
        long t0 = System.nanoTime();
        acc += call.applyAsInt(i);
        times[i] = System.nanoTime() - t0;
      }
      Arrays.sort(times);
      out[r] = times[calls / 2] * 1e-3;
    }
    sink = acc;
    return out;
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
