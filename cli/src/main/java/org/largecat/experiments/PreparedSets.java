package org.largecat.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetReader;
import org.largecat.data.ReadOptions;
import org.largecat.data.SparseFeatures;
import org.largecat.data.TextFormat;

/**
 * The real sets that {@code largecat data prepare NAME --out DATA/NAME} wrote, read for an
 * experiment.
 */
final class PreparedSets {
  private PreparedSets() {}

  /**
   * {train, test} of the set under {@code data}, the test set read with the training set's shape; a
   * set not prepared yet is an error naming the command that prepares it.
   */
  static Dataset[] read(Path data, String name) throws IOException {
    Path dir = data.resolve(name);
    Path trainFile = dir.resolve("train.txt");
    if (!Files.exists(trainFile)) {
      throw new IOException(
          trainFile
              + " is missing: run 'largecat data prepare "
              + name
              + " --out "
              + dir
              + "' first");
    }
    ReadOptions format = ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION);
    Dataset train = DatasetReader.read(trainFile, format);
    Dataset test =
        DatasetReader.read(
            dir.resolve("test.txt"), format.withShape(train.columns(), train.classes()));
    return new Dataset[] {train, test};
  }

  /** The same examples with dense features. */
  static Dataset dense(Dataset data) {
    return data.features() instanceof SparseFeatures s
        ? new Dataset(s.toDense(), data.labels(), data.classes())
        : data;
  }
}
