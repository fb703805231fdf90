package org.largecat.prepare;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.largecat.AtomicWrite;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetWriter;

/**
 * A real dataset converted to the repository's text format: its training and test sets (same D and
 * K) with the class names and a record of where it came from and how it was made, written to a
 * directory as {@code train.txt}, {@code test.txt}, {@code classes.txt} and {@code README.txt}.
 *
 * @param name the name {@code largecat data prepare} knows it by
 * @param source the package (with version) and files or command it was read from
 * @param recipe how examples, features and labels were made from the source
 * @param split how the rows were divided into training and test sets
 */
public record PreparedSet(
    String name,
    Dataset train,
    Dataset test,
    List<String> classNames,
    String source,
    String recipe,
    String split) {

  public PreparedSet {
    if (train.columns() != test.columns()
        || train.classes() != test.classes()
        || classNames.size() != train.classes()) {
      throw new IllegalArgumentException(
          name
              + ": training set D = "
              + train.columns()
              + ", K = "
              + train.classes()
              + ", test set D = "
              + test.columns()
              + ", K = "
              + test.classes()
              + ", "
              + classNames.size()
              + " class names");
    }
  }

  /** The names of the files {@link #write} writes into its directory. */
  public static final List<String> FILES =
      List.of("train.txt", "test.txt", "classes.txt", "README.txt");

  /** Writes the four files into {@code dir}, creating it when needed and replacing the files. */
  public void write(Path dir) throws IOException {
    AtomicWrite.createDirectories(dir);
    DatasetWriter.write(train, dir.resolve(FILES.get(0)));
    DatasetWriter.write(test, dir.resolve(FILES.get(1)));
    AtomicWrite.writeString(
        dir.resolve(FILES.get(2)),
        classNames.stream().map(name -> name + "\n").collect(Collectors.joining()));
    AtomicWrite.writeString(dir.resolve(FILES.get(3)), readme());
  }

  /** One line: N (train + test), D and K. */
  public String summary() {
    return String.format(
        "%s: N = %d (train %d, test %d), D = %d, K = %d",
        name,
        train.rows() + test.rows(),
        train.rows(),
        test.rows(),
        train.columns(),
        train.classes());
  }

  private String readme() {
    return "largecat data prepare "
        + name
        + "\n"
        + "N: "
        + (train.rows() + test.rows())
        + " (train.txt "
        + train.rows()
        + ", test.txt "
        + test.rows()
        + ")\n"
        + "D: "
        + train.columns()
        + "\n"
        + "K: "
        + train.classes()
        + " (classes.txt: line k+1 names class k)\n"
        + "source: "
        + source
        + "\n"
        + "split: "
        + split
        + "\n"
        + "recipe: "
        + recipe
        + "\n"
        + "format: the Extreme Classification text format, 0-based: header 'N D K', then 'label f:v f:v ...'"
        + " with zero values left out\n";
  }
}
