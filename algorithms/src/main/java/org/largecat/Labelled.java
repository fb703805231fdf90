package org.largecat;

import java.util.Arrays;
import java.util.stream.Collectors;

/** An enum constant with a name on the command line. */
public interface Labelled {

  /** The name on the command line. */
  String label();

  /**
   * Returns the constant of {@code type} named {@code label}; the error lists the names there are.
   */
  static <E extends Enum<E> & Labelled> E byLabel(Class<E> type, String label, String what) {
    for (E e : type.getEnumConstants()) {
      if (e.label().equals(label)) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        "unknown "
            + what
            + " '"
            + label
            + "'; one of "
            + Arrays.stream(type.getEnumConstants())
                .map(Labelled::label)
                .collect(Collectors.joining(", ")));
  }
}
