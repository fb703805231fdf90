package org.largecat.cli;

import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The {@code --name value} and {@code --flag} arguments of one subcommand. Unknown names, a missing
 * value, a value of the wrong type and a missing required option are {@link Largecat.UsageException}s
 * that name the option.
 */
final class CommandLine {
  private final String command;
  private final Map<String, String> values = new HashMap<>();
  private final Set<String> flags = new HashSet<>();

  /**
   * Parses {@code args} for {@code command}, which takes the options in {@code valued} (each followed
   * by a value) and the switches in {@code switches}.
   */
  CommandLine(String command, String[] args, Collection<String> valued, Collection<String> switches) {
    this.command = command;
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (switches.contains(name)) {
        flags.add(name);
      } else if (valued.contains(name)) {
        if (i + 1 >= args.length) {
          throw usage(name + " needs a value");
        }
        values.put(name, args[++i]);
      } else {
        throw usage("unknown option '" + name + "'");
      }
    }
  }

  boolean has(String name) {
    return flags.contains(name) || values.containsKey(name);
  }

  String string(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  String required(String name) {
    String v = values.get(name);
    if (v == null) {
      throw usage(name + " is required");
    }
    return v;
  }

  Path requiredPath(String name) {
    return Path.of(required(name));
  }

  Path path(String name) {
    String v = values.get(name);
    return v == null ? null : Path.of(v);
  }

  int integer(String name, int fallback, int min) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(v);
      if (parsed < min) {
        throw usage(name + " " + v + " must be >= " + min);
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw usage(name + " '" + v + "' is not an integer");
    }
  }

  long longValue(String name, long fallback) {
    String v = values.get(name);
    try {
      return v == null ? fallback : Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw usage(name + " '" + v + "' is not an integer");
    }
  }

  /** A finite number >= 0. */
  double number(String name, double fallback) {
    return decimal(name, fallback, false);
  }

  /** A finite number > 0. */
  double positive(String name, double fallback) {
    return decimal(name, fallback, true);
  }

  private double decimal(String name, double fallback, boolean positive) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    double parsed;
    try {
      parsed = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw usage(name + " '" + v + "' is not a number");
    }
    if (!(parsed >= 0 && parsed < Double.POSITIVE_INFINITY) || (positive && parsed == 0)) {
      throw usage(name + " " + v + " must be " + (positive ? "a positive finite number" : "finite and >= 0"));
    }
    return parsed;
  }

  Largecat.UsageException usage(String message) {
    return new Largecat.UsageException(command + ": " + message);
  }
}
