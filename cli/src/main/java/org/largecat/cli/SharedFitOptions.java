package org.largecat.cli;

import java.nio.file.Path;
import org.largecat.fit.Fitter;
import org.largecat.train.Method;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options train and tune share: the training set, the method, the sizes, the seed, the threads
 * and the double-sum methods' ridge.
 */
final class SharedFitOptions {
  @Option(
      names = "--train",
      paramLabel = "FILE",
      required = true,
      description = "The training set.")
  Path trainFile;

  @Option(
      names = "--method",
      paramLabel = "METHOD",
      description =
          "The training method; train takes auto (the default): exact-softmax when its"
              + " full-batch solver fits the heap and an estimated time, else ar-softmax.")
  Method method;

  @Mixin BatchOptions sizes;

  @Option(
      names = "--threads",
      paramLabel = "N",
      converter = OptionTypes.Count.class,
      description = "Worker threads (default: one per core).")
  Integer threads;

  @Option(
      names = "--ridge",
      paramLabel = "MU",
      converter = OptionTypes.PositiveNumber.class,
      description = "The double-sum methods' mu (default: 0).")
  Double ridge;

  /** {@code fitter} with the options given. */
  Fitter configure(Fitter fitter) {
    if (method != null) {
      fitter.method(method);
    }
    if (threads != null) {
      fitter.threads(threads);
    }
    if (ridge != null) {
      fitter.ridge(ridge);
    }
    return sizes.configure(fitter);
  }
}
