package org.largecat.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.largecat.data.DataFileException;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetBlocks;
import org.largecat.data.DatasetReader;
import org.largecat.data.OutOfShapeException;
import org.largecat.data.ReadOptions;
import org.largecat.data.SparseFeatures;
import org.largecat.data.TextFormat;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Reading datasets for the commands (a mixin of their options): the {@code --format xc|libsvm},
 * {@code --feature-base} and {@code --label-base} options, and dense storage when at least a
 * quarter of the values are stored (then a gather-dot streams rows instead of chasing indices).
 */
final class DataFiles {
  @Option(
      names = "--format",
      paramLabel = "xc|libsvm",
      defaultValue = "xc",
      description = "The data files' format (default: ${DEFAULT-VALUE}).")
  TextFormat format;

  @Mixin IndexBases bases;

  /**
   * Reads {@code file}; with {@code columns} and {@code classes} ≥ 0 (a training set's) the file
   * must fit them.
   */
  Dataset read(Path file, int columns, int classes) throws IOException {
    return denseIfFull(DatasetReader.read(file, options(columns, classes)));
  }

  /**
   * Reads {@code file}, which must fit the {@code columns} and {@code classes} of {@code source}
   * (e.g. "the training set train.txt"), which a row that does not fit them is told with.
   */
  Dataset read(Path file, int columns, int classes, String source) throws IOException {
    try {
      return read(file, columns, classes);
    } catch (OutOfShapeException e) {
      throw shapeFrom(e, source);
    }
  }

  /**
   * {@code e} told with where the D and K it does not fit came from, e.g. "the model file m.bin".
   */
  static DataFileException shapeFrom(OutOfShapeException e, String source) {
    DataFileException told =
        new DataFileException(
            e.file(),
            e.line(),
            e.reason()
                + ", which comes from "
                + source
                + ": the two files do not have the same shape");
    told.initCause(e);
    return told;
  }

  /**
   * Opens {@code file} to read in blocks of examples that must fit {@code columns} and {@code
   * classes} (a model's); each block goes through {@link #denseIfFull} on its own.
   */
  DatasetBlocks blocks(Path file, int columns, int classes) throws IOException {
    return DatasetBlocks.open(file, options(columns, classes), DatasetBlocks.DEFAULT_ROWS);
  }

  private ReadOptions options(int columns, int classes) {
    ReadOptions options = ReadOptions.of(format);
    return bases.apply(options).withShape(columns, classes);
  }

  static Dataset denseIfFull(Dataset data) {
    long cells = (long) data.rows() * data.columns();
    if (data.features() instanceof SparseFeatures s
        && cells > 0
        && cells < Integer.MAX_VALUE - 8
        && s.storedValues() * 4 >= cells) {
      return new Dataset(s.toDense(), data.labels(), data.classes());
    }
    return data;
  }
}
