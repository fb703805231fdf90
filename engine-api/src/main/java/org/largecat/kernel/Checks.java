package org.largecat.kernel;

/**
 * Argument checks for the public kernel fronts. Each failure names the operation, the argument and
 * why it is wrong, so a caller can fix the call without reading the kernel.
 */
final class Checks {
  private Checks() {}

  static void count(String op, String name, long n) {
    if (n < 0) {
      throw new IllegalArgumentException(op + ": " + name + " = " + n + " is negative");
    }
  }

  static void positive(String op, String name, long n) {
    if (n <= 0) {
      throw new IllegalArgumentException(op + ": " + name + " = " + n + " must be positive");
    }
  }

  /** Checks that {@code array[offset .. offset + span)} exists. */
  static void span(String op, String name, int arrayLength, int offset, long span) {
    if (offset < 0 || span < 0 || offset + span > arrayLength) {
      throw new IndexOutOfBoundsException(
          op
              + ": "
              + name
              + " has length "
              + arrayLength
              + " but the call reads "
              + span
              + " elements from offset "
              + offset);
    }
  }

  static void notNull(String op, String name, Object array) {
    if (array == null) {
      throw new NullPointerException(op + ": " + name + " is null");
    }
  }

  /** Checks that two array arguments a kernel writes through are not one array. */
  static void distinct(String op, String name, Object array, String otherName, Object other) {
    if (array == other) {
      throw new IllegalArgumentException(
          op + ": " + name + " and " + otherName + " are the same array; pass separate arrays");
    }
  }

  /** The length of an array argument, after checking that it is there. */
  static int length(String op, String name, float[] a) {
    notNull(op, name, a);
    return a.length;
  }

  static int length(String op, String name, double[] a) {
    notNull(op, name, a);
    return a.length;
  }

  static void span(String op, String name, float[] a, int offset, long span) {
    notNull(op, name, a);
    span(op, name, a.length, offset, span);
  }

  static void span(String op, String name, double[] a, int offset, long span) {
    notNull(op, name, a);
    span(op, name, a.length, offset, span);
  }

  static void span(String op, String name, int[] a, int offset, long span) {
    notNull(op, name, a);
    span(op, name, a.length, offset, span);
  }

  /**
   * Checks the extent of a row-major matrix of {@code rows x cols} with leading dimension {@code
   * ld}.
   */
  static void matrix(
      String op, String name, int arrayLength, int offset, int rows, int cols, int ld) {
    count(op, name + " rows", rows);
    count(op, name + " columns", cols);
    if (ld < Math.max(1, cols)) {
      throw new IllegalArgumentException(
          op
              + ": leading dimension of "
              + name
              + " is "
              + ld
              + " but its rows have "
              + cols
              + " columns");
    }
    long span = rows == 0 || cols == 0 ? 0 : (long) (rows - 1) * ld + cols;
    span(op, name, arrayLength, offset, span);
  }

  /**
   * Checks that every index in {@code indices[offset .. offset + n)} lies in {@code [0, bound)}.
   */
  static void indices(
      String op, String name, int[] indices, int offset, int n, int bound, String boundName) {
    span(op, name, indices, offset, n);
    for (int i = 0; i < n; i++) {
      int v = indices[offset + i];
      if (v < 0 || v >= bound) {
        throw new IndexOutOfBoundsException(
            op
                + ": "
                + name
                + "["
                + (offset + i)
                + "] = "
                + v
                + " is outside [0, "
                + bound
                + ") ("
                + boundName
                + " = "
                + bound
                + ")");
      }
    }
  }

  /**
   * Checks that {@code indices[offset .. offset + n)} is strictly increasing, as a CSR row's
   * columns are.
   */
  static void strictlyIncreasing(String op, String name, int[] indices, int offset, int n) {
    for (int i = offset + 1; i < offset + n; i++) {
      if (indices[i] <= indices[i - 1]) {
        throw new IllegalArgumentException(
            op
                + ": "
                + name
                + " must be strictly increasing (one CSR row), but "
                + name
                + "["
                + (i - 1)
                + "] = "
                + indices[i - 1]
                + " and "
                + name
                + "["
                + i
                + "] = "
                + indices[i]);
      }
    }
  }

  static void finitePositive(String op, String name, double v) {
    if (!(v > 0) || v == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException(
          op + ": " + name + " = " + v + " must be finite and positive");
    }
  }
}
