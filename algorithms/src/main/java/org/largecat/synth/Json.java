package org.largecat.synth;

import java.util.Locale;

/** The few JSON shapes the synth reports write: numbers, arrays and row-major square matrices. */
final class Json {
  private Json() {}

  /** A finite number round-trip exact; NaN and infinities as null (JSON has neither). */
  static String number(double value) {
    return Double.isFinite(value) ? Double.toString(value).toLowerCase(Locale.ROOT) : "null";
  }

  static String array(double[] values) {
    StringBuilder out = new StringBuilder("[");
    for (int j = 0; j < values.length; j++) {
      out.append(j == 0 ? "" : ",").append(number(values[j]));
    }
    return out.append(']').toString();
  }

  /** An n x n row-major matrix as an array of rows. */
  static String matrix(double[] values, int n) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      out.append(i == 0 ? "" : ",").append(array(java.util.Arrays.copyOfRange(values, i * n, (i + 1) * n)));
    }
    return out.append(']').toString();
  }
}
