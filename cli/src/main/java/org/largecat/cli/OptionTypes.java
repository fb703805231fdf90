package org.largecat.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;
import org.largecat.cb.Link;
import org.largecat.data.TextFormat;
import org.largecat.experiments.Experiment;
import org.largecat.synth.VariationalEm;
import org.largecat.train.Method;
import org.largecat.train.Sampling;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How option values are read: paths, the library's named choices by their labels, and numbers in
 * the range an option allows. A value that does not fit is a usage error that says why.
 */
final class OptionTypes {
  private OptionTypes() {}

  /** Teaches {@code command} and its subcommands to read the library's named choices. */
  static void registerLabels(CommandLine command) {
    // "auto" is no method but the absence of one, which train resolves once it has read the data.
    command.registerConverter(Path.class, OptionTypes::path);
    command.registerConverter(Method.class, label(OptionTypes::methodOrAuto));
    command.registerConverter(Sampling.class, label(Sampling::byLabel));
    command.registerConverter(Link.class, label(s -> Link.byLabel(s.toLowerCase(Locale.ROOT))));
    command.registerConverter(VariationalEm.Method.class, label(VariationalEm.Method::parse));
    command.registerConverter(Experiment.class, label(Experiment::byLabel));
    command.registerConverter(EvalFunction.class, label(EvalFunction::byLabel));
    command.registerConverter(
        TextFormat.class,
        label(
            s ->
                switch (s) {
                  case "xc" -> TextFormat.EXTREME_CLASSIFICATION;
                  case "libsvm" -> TextFormat.LIBSVM;
                  default -> throw new IllegalArgumentException("'" + s + "' is not xc or libsvm");
                }));
  }

  private static Method methodOrAuto(String label) {
    if (label.equals("auto")) {
      return null;
    }
    try {
      return Method.byLabel(label);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + ", or auto (train)", e);
    }
  }

  private static <T> ITypeConverter<T> label(Function<String, T> byLabel) {
    return value -> {
      try {
        return byLabel.apply(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    };
  }

  /** A path whose name the file system can take under the current locale. */
  static Path path(String value) {
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new TypeConversionException(
          "'"
              + value
              + "' could not be encoded under the current locale (character set "
              + System.getProperty("sun.jnu.encoding")
              + "); run under a UTF-8 locale, e.g. LC_ALL=C.UTF-8");
    }
  }

  /** An index base: 0 or 1. */
  static final class IndexBase implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      int parsed = atLeast(value, 0);
      if (parsed > 1) {
        throw new TypeConversionException(value + " must be 0 or 1");
      }
      return parsed;
    }
  }

  /** An integer ≥ 1. */
  static final class Count implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return atLeast(value, 1);
    }
  }

  /** An integer ≥ 0. */
  static final class NonNegativeInteger implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return atLeast(value, 0);
    }
  }

  /** A finite number > 0. */
  static final class PositiveNumber implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      double parsed = number(value);
      if (!(parsed > 0 && parsed < Double.POSITIVE_INFINITY)) {
        throw new TypeConversionException(value + " must be a positive finite number");
      }
      return parsed;
    }
  }

  /** A finite number ≥ 0. */
  static final class NonNegativeNumber implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      double parsed = number(value);
      if (!(parsed >= 0 && parsed < Double.POSITIVE_INFINITY)) {
        throw new TypeConversionException(value + " must be finite and >= 0");
      }
      return parsed;
    }
  }

  /** A finite ratio > 1. */
  static final class RatioAboveOne implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      double parsed = number(value);
      if (!(parsed > 1 && parsed < Double.POSITIVE_INFINITY)) {
        throw new TypeConversionException(value + " must be a number > 1 (a ratio of times)");
      }
      return parsed;
    }
  }

  private static int atLeast(String value, int min) {
    int parsed;
    try {
      parsed = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' is not an integer");
    }
    if (parsed < min) {
      throw new TypeConversionException(value + " must be >= " + min);
    }
    return parsed;
  }

  private static double number(String value) {
    try {
      return Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' is not a number");
    }
  }
}
