package org.largecat.cli;

import org.largecat.data.ReadOptions;
import picocli.CommandLine.Option;

/**
 * The {@code --feature-base} and {@code --label-base} options of the commands that read the text
 * formats (a mixin).
 */
final class IndexBases {
  @Option(
      names = "--feature-base",
      paramLabel = "0|1",
      converter = OptionTypes.IndexBase.class,
      description = "The index of the first feature (default: the format's).")
  Integer featureBase;

  @Option(
      names = "--label-base",
      paramLabel = "0|1",
      converter = OptionTypes.IndexBase.class,
      description = "The index of the first class (default: the format's).")
  Integer labelBase;

  /** {@code options} with the bases given here in place of the format's. */
  ReadOptions apply(ReadOptions options) {
    return options.withBases(
        featureBase == null ? options.featureBase() : featureBase,
        labelBase == null ? options.labelBase() : labelBase);
  }
}
