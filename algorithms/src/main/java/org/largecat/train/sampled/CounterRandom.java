package org.largecat.train.sampled;

import java.util.random.RandomGenerator;

/**
 * SplitMix64 that can be reseeded in place, so each (iteration, example) gets its own stream
 * without allocating: the draws of an example do not depend on which thread runs it.
 */
final class CounterRandom implements RandomGenerator {
  private long state;

  /** Restarts the stream at a seed mixed from the three keys. */
  void reseed(long seed, long iteration, long example) {
    state =
        mix(mix(seed ^ 0x9E3779B97F4A7C15L) ^ iteration * 0xBF58476D1CE4E5B9L)
            ^ example * 0x94D049BB133111EBL;
  }

  @Override
  public long nextLong() {
    return mix(state += 0x9E3779B97F4A7C15L);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
