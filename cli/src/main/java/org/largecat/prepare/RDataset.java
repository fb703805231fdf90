package org.largecat.prepare;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;

/**
 * The small real sets of the categorical-from-binary experiments, read from Debian's R packages
 * through {@code Rscript} at prepare time: a factor label (its levels in R's order are classes 0,
 * 1, ...) and numeric covariates, z-transformed as the paper's App. G.4.1 does, here with the
 * training set's mean and sample standard deviation applied to both sets (a covariate constant in
 * training is only centred).
 */
public enum RDataset {
  /** mlbench's Glass (UCI glass identification). */
  GLASS(
      "glass",
      "mlbench",
      "Glass",
      "Type",
      0.1,
      true,
      "the class is the glass type code (1 building windows float processed, 2 building windows non-float"
          + " processed, 3 vehicle windows float processed, 5 containers, 6 tableware, 7 headlamps; type 4 never"
          + " occurs)",
      "categorical-from-binary App. G.4.1 holds out 10% of glass (G.7: N_train = 192, N_test = 22)"),
  /** mlbench's LetterRecognition (UCI letter recognition). */
  LETTER(
      "letter",
      "mlbench",
      "LetterRecognition",
      "lettr",
      0.2,
      false,
      "the class is the capital letter, A = 0 ... Z = 25",
      "the UCI documentation's own: train on the first 16,000 items, test on the remaining 4,000"),
  /** MNP's detergent (Imai and van Dyk 2005; Chintagunta and Prasad 1998). */
  DETERGENT(
      "detergent",
      "MNP",
      "detergent",
      "choice",
      0.2,
      true,
      "the class is the brand bought (classes.txt); the covariates are the prices of all six brands per"
          + " purchase occasion",
      "categorical-from-binary App. G.4.1 holds out 20% of detergent");

  private final String name;
  private final String rPackage;
  private final String dataName;
  private final String labelColumn;
  private final double testFraction;
  private final boolean stratified;
  private final String labelNote;
  private final String splitReason;

  RDataset(
      String name,
      String rPackage,
      String dataName,
      String labelColumn,
      double testFraction,
      boolean stratified,
      String labelNote,
      String splitReason) {
    this.name = name;
    this.rPackage = rPackage;
    this.dataName = dataName;
    this.labelColumn = labelColumn;
    this.testFraction = testFraction;
    this.stratified = stratified;
    this.labelNote = labelNote;
    this.splitReason = splitReason;
  }

  /** The name {@code largecat data prepare} knows it by. */
  public String setName() {
    return name;
  }

  /** The Debian package of its R package. */
  public DebianPackage debianPackage() {
    return new DebianPackage("r-cran-" + rPackage.toLowerCase(Locale.ROOT));
  }

  /** The set named {@code name}, or null. */
  public static RDataset byName(String name) {
    for (RDataset d : values()) {
      if (d.name.equals(name)) {
        return d;
      }
    }
    return null;
  }

  /** Whether Rscript is on PATH and loads the R package. */
  public boolean installed() {
    Path rscript = DebianPackage.onPath("Rscript");
    try {
      return rscript != null
          && run(
              rscript,
              "quit(status = if (requireNamespace('" + rPackage + "', quietly = TRUE)) 0 else 1)",
              out -> true);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Reads the data frame through Rscript and splits it: stratified and seeded by {@code seed} where
   * the set has no split of its own.
   */
  public PreparedSet prepare(long seed) throws IOException {
    Path rscript = DebianPackage.onPath("Rscript");
    if (rscript == null) {
      throw debianPackage().missing("Rscript is not on PATH");
    }
    if (!installed()) {
      throw debianPackage().missing("the R package " + rPackage + " is not installed");
    }
    Table t =
        run(
            rscript,
            String.join(
                "\n",
                "suppressPackageStartupMessages(library(" + rPackage + "))",
                "data(list = '" + dataName + "', package = '" + rPackage + "')",
                "d <- get('" + dataName + "')",
                "y <- d[['" + labelColumn + "']]",
                "x <- d[setdiff(names(d), '" + labelColumn + "')]",
                "stopifnot(is.factor(y), all(vapply(x, is.numeric, TRUE)), !anyNA(x), !anyNA(y))",
                "cat(as.character(packageVersion('" + rPackage + "')), '\\n', sep = '')",
                "cat(levels(y), sep = '\\t'); cat('\\n')",
                "write.table(cbind(label = as.integer(y) - 1L, x), stdout(), sep = '\\t', quote = FALSE, row.names = FALSE)"),
            Table::parse);
    int classes = t.levels.size();
    Dataset all =
        new Dataset(
            new DenseFeatures(t.labels.length, t.covariates.size(), t.values), t.labels, classes);
    Split split =
        stratified
            ? Split.stratified(t.labels, classes, testFraction, seed)
            : Split.tail(t.labels.length, (int) Math.round(testFraction * t.labels.length));
    Dataset[] standardized = zTransform(split.trainOf(all), split.testOf(all));
    DebianPackage debian = debianPackage();
    String source =
        "Debian package "
            + debian.name()
            + " "
            + debian.version()
            + " (R package "
            + rPackage
            + " "
            + t.version
            + "): data("
            + dataName
            + ") read through "
            + rscript;
    String recipe =
        "one example per row of the data frame; label = column "
            + labelColumn
            + " (a factor; its levels in"
            + " R's order are classes 0.."
            + (classes - 1)
            + ": "
            + String.join(", ", t.levels)
            + "); "
            + labelNote
            + "; features 0.."
            + (t.covariates.size() - 1)
            + " = "
            + String.join(", ", t.covariates)
            + ", each z-transformed with the training set's mean and sample standard deviation (as"
            + " categorical-from-binary App. G.4.1 z-transforms all covariates); no intercept column (largecat cavi"
            + " adds one)";
    String splitText =
        (stratified
                ? "seeded stratified: within each class the rows are shuffled (SplittableRandom seed "
                    + seed
                    + ") and"
                    + " round("
                    + testFraction
                    + " x count) go to test"
                : "by position: the last " + split.test().length + " rows test")
            + "; "
            + splitReason
            + "; both files keep the source's row order";
    return new PreparedSet(
        name, standardized[0], standardized[1], t.levels, source, recipe, splitText);
  }

  /**
   * Both sets with each column centred and scaled by the training set's mean and sample standard
   * deviation.
   */
  public static Dataset[] zTransform(Dataset train, Dataset test) {
    DenseFeatures x = (DenseFeatures) train.features();
    int d = x.columns();
    double[] mean = new double[d];
    double[] sd = new double[d];
    for (int j = 0; j < d; j++) {
      double sum = 0;
      for (int n = 0; n < x.rows(); n++) {
        sum += x.values()[n * d + j];
      }
      mean[j] = sum / x.rows();
      double squares = 0;
      for (int n = 0; n < x.rows(); n++) {
        double centred = x.values()[n * d + j] - mean[j];
        squares += centred * centred;
      }
      sd[j] = x.rows() > 1 ? Math.sqrt(squares / (x.rows() - 1)) : 0;
    }
    Dataset[] out = new Dataset[2];
    Dataset[] in = {train, test};
    for (int s = 0; s < 2; s++) {
      DenseFeatures f = (DenseFeatures) in[s].features();
      float[] z = new float[f.values().length];
      for (int i = 0; i < z.length; i++) {
        int j = i % d;
        double centred = f.values()[i] - mean[j];
        z[i] = (float) (sd[j] > 0 ? centred / sd[j] : centred);
      }
      out[s] = new Dataset(new DenseFeatures(f.rows(), d, z), in[s].labels(), in[s].classes());
    }
    return out;
  }

  /**
   * What the R script prints: the R package version, the label levels, then a header and the rows.
   */
  record Table(
      String version, List<String> levels, List<String> covariates, int[] labels, float[] values) {

    static Table parse(Reader output) throws IOException {
      BufferedReader in = new BufferedReader(output);
      String version = in.readLine();
      String levelLine = in.readLine();
      String header = in.readLine();
      if (version == null || levelLine == null || header == null) {
        throw new IOException("Rscript printed no table");
      }
      String[] columns = header.split("\t");
      List<String> covariates = List.of(columns).subList(1, columns.length);
      List<Integer> labels = new ArrayList<>();
      float[] values = new float[1024];
      int size = 0;
      String line;
      while ((line = in.readLine()) != null) {
        String[] fields = line.split("\t");
        if (fields.length != covariates.size() + 1) {
          throw new IOException(
              "Rscript output row "
                  + (labels.size() + 1)
                  + " has "
                  + fields.length
                  + " fields, expected "
                  + (covariates.size() + 1)
                  + ": '"
                  + line
                  + "'");
        }
        labels.add(Integer.parseInt(fields[0]));
        for (int j = 1; j < fields.length; j++) {
          if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
          }
          values[size++] = (float) Double.parseDouble(fields[j]);
        }
      }
      return new Table(
          version,
          List.of(levelLine.split("\t")),
          List.copyOf(covariates),
          labels.stream().mapToInt(Integer::intValue).toArray(),
          Arrays.copyOf(values, size));
    }
  }

  /** Turns the script's standard output into a result. */
  private interface OutputParser<T> {
    T parse(Reader out) throws IOException;
  }

  /**
   * Runs {@code Rscript -e script} and parses its output (small: these sets are at most 20,000
   * rows); a failing script is an error with R's message.
   */
  private static <T> T run(Path rscript, String script, OutputParser<T> parser) throws IOException {
    Path errors = Files.createTempFile("largecat-rscript", ".err");
    try {
      Process r =
          new ProcessBuilder(rscript.toString(), "--vanilla", "-e", script)
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .redirectError(errors.toFile())
              .start();
      String output = new String(r.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int status = r.waitFor();
      if (status != 0) {
        throw new IOException(
            "Rscript failed (status " + status + "): " + Files.readString(errors).strip());
      }
      return parser.parse(new StringReader(output));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for Rscript", e);
    } finally {
      Files.deleteIfExists(errors);
    }
  }
}
