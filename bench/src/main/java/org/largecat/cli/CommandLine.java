package org.largecat.cli;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** {@code --name value} and {@code --flag} options of one subcommand, checked against the names it knows. */
final class CommandLine {
  private final String command;
  private final Map<String, String> values = new HashMap<>();

  CommandLine(String command, String[] args, Set<String> valued, Set<String> flags) {
    this.command = command;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (flags.contains(a)) {
        values.put(a, "");
      } else if (valued.contains(a)) {
        if (i + 1 >= args.length) {
          throw new Largecat.UsageException(command + ": " + a + " needs a value");
        }
        values.put(a, args[++i]);
      } else {
        throw new Largecat.UsageException(command + ": unexpected argument '" + a + "'");
      }
    }
  }

  boolean has(String name) {
    return values.containsKey(name);
  }

  String string(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  String required(String name) {
    String v = values.get(name);
    if (v == null) {
      throw new Largecat.UsageException(command + ": " + name + " is required");
    }
    return v;
  }

  int integer(String name, int fallback, int min) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v);
      if (n < min) {
        throw new Largecat.UsageException(command + ": " + name + " " + v + " must be >= " + min);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new Largecat.UsageException(command + ": " + name + " '" + v + "' is not an integer");
    }
  }

  double number(String name, double fallback) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      double x = Double.parseDouble(v);
      if (!Double.isFinite(x) || x < 0) {
        throw new Largecat.UsageException(command + ": " + name + " " + v + " must be finite and >= 0");
      }
      return x;
    } catch (NumberFormatException e) {
      throw new Largecat.UsageException(command + ": " + name + " '" + v + "' is not a number");
    }
  }
}
