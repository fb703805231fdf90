package org.largecat.cli;

import org.largecat.cli.spark.InputSpec;
import org.largecat.data.ReadOptions;
import org.largecat.data.TextFormat;
import org.largecat.spark.data.InputFormat;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How the {@code spark} commands read their data files (a mixin): {@code --format}, or the file's
 * extension, and the text formats' index bases.
 */
final class SparkInput {
  @Option(
      names = "--format",
      paramLabel = "xc|libsvm|parquet|csv",
      description =
          "The data files' format (default: from the name: .parquet, .csv, .libsvm or .svm, else"
              + " xc).")
  InputFormat format;

  @Mixin IndexBases bases;

  /** How to read {@code path}; with {@code columns} and {@code classes} ≥ 0 it must fit them. */
  InputSpec of(String path, int columns, int classes) {
    InputFormat chosen = format != null ? format : InputFormat.ofName(path);
    TextFormat text = chosen.textFormat();
    ReadOptions options =
        text == null
            ? ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION)
            : bases.apply(ReadOptions.of(text));
    return new InputSpec(path, chosen, options.withShape(columns, classes));
  }
}
