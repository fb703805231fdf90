package org.largecat.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetReader;
import org.largecat.data.ReadOptions;
import org.largecat.data.SparseFeatures;
import org.largecat.data.TextFormat;

/**
 * Reading datasets for the commands: the {@code --format xc|libsvm}, {@code --feature-base} and
 * {@code --label-base} options, and dense storage when at least a quarter of the values are stored
 * (then a gather-dot streams rows instead of chasing indices).
 */
final class DataFiles {
  static final List<String> OPTIONS = List.of("--format", "--feature-base", "--label-base");

  private DataFiles() {}

  /** Reads {@code file}; with {@code columns} and {@code classes} ≥ 0 (a training set's) the file must fit them. */
  static Dataset read(CommandLine args, Path file, int columns, int classes) throws IOException {
    TextFormat format = switch (args.string("--format", "xc")) {
      case "xc" -> TextFormat.EXTREME_CLASSIFICATION;
      case "libsvm" -> TextFormat.LIBSVM;
      default -> throw args.usage("--format must be xc or libsvm");
    };
    ReadOptions options = ReadOptions.of(format);
    options = options.withBases(args.integer("--feature-base", options.featureBase(), 0),
        args.integer("--label-base", options.labelBase(), 0));
    options = options.withShape(columns, classes);
    return denseIfFull(DatasetReader.read(file, options));
  }

  static Dataset denseIfFull(Dataset data) {
    long cells = (long) data.rows() * data.columns();
    if (data.features() instanceof SparseFeatures s && cells > 0 && cells < Integer.MAX_VALUE - 8
        && s.storedValues() * 4 >= cells) {
      return new Dataset(s.toDense(), data.labels(), data.classes());
    }
    return data;
  }
}
