package org.largecat;

import java.util.Locale;

/**
 * Refuses an allocation that cannot fit in the heap before it is attempted, so that a large shape
 * in a header or on the command line is an error that gives the sizes and the fix, not an
 * OutOfMemoryError after minutes of work.
 */
public final class MemoryBudget {
  /** The largest length the JVM gives an array. */
  public static final long MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  private MemoryBudget() {}

  /**
   * Checks that {@code count} elements of {@code bytesEach} bytes, described by {@code what} (e.g.
   * "K × D = 46000 × 46000 weights"), fit in one array and in the heap.
   */
  public static int arrayLength(long count, int bytesEach, String what) {
    if (count < 0 || count > MAX_ARRAY_LENGTH) {
      throw new IllegalArgumentException(
          what
              + ": "
              + (count == Long.MAX_VALUE ? "more than 2^63" : Long.toString(count))
              + " elements, more than a Java array holds ("
              + MAX_ARRAY_LENGTH
              + "); use a smaller shape");
    }
    require(saturatedProduct(count, bytesEach), what);
    return (int) count;
  }

  /**
   * The length of an array of the product of {@code factors} elements of {@code bytesEach} bytes,
   * checked as {@link #arrayLength(long, int, String)} does; the message gives {@code what} (e.g.
   * "the features, N × D") with the factors. The product is taken in {@code long}, saturating.
   */
  public static int arrayLength(String what, int bytesEach, long... factors) {
    long count = 1;
    StringBuilder shape = new StringBuilder(what).append(" = ");
    for (int i = 0; i < factors.length; i++) {
      shape.append(i == 0 ? "" : " × ").append(factors[i]);
      count = saturatedProduct(count, factors[i]);
    }
    return arrayLength(count, bytesEach, shape.toString());
  }

  /** {@code a × b} for sizes ≥ 0, or Long.MAX_VALUE where it overflows (-1 if either is < 0). */
  public static long saturatedProduct(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return high == 0 && low >= 0 ? low : a < 0 || b < 0 ? -1 : Long.MAX_VALUE;
  }

  /** Checks that {@code bytes} for {@code what} are no more than the heap's maximum size. */
  public static void require(long bytes, String what) {
    require(bytes, what, "give the JVM more (LARGECAT_JAVA_OPTS=-Xmx...) or use a smaller shape");
  }

  /**
   * As {@link #require(long, String)}, with {@code fix} (e.g. "use --method ar-softmax") in the
   * message instead of the general one.
   */
  public static void require(long bytes, String what, String fix) {
    long heap = Runtime.getRuntime().maxMemory();
    if (bytes > heap) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "%s: %s needed, more than the %s heap; %s",
              what,
              size(bytes),
              size(heap),
              fix));
    }
  }

  private static String size(long bytes) {
    return bytes >= 1L << 30
        ? String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30))
        : String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1L << 20));
  }
}
