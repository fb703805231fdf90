package org.largecat.data;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.largecat.IoErrors;
import org.largecat.MemoryBudget;

/**
 * Reads the sparse text formats of {@link TextFormat} into a {@link Dataset} with CSR features.
 * Multi-label rows keep their first label, as the A&R paper does (§4.2). Every problem — a
 * malformed token, an index or label out of range, a repeated feature, NaN or ±Inf, a missing
 * label, a header that disagrees with the body, a short file — is a {@link DataFileException}
 * naming the file and line; nothing is skipped.
 */
public final class DatasetReader {
  /**
   * A size from a header or the largest label may be at most this many times what the rows use
   * (docs/datasets.md), unless it is no more than {@link #SMALL_SHAPE}.
   */
  static final int SPARSE_SLACK = 10;

  /** A size small enough to accept whatever the rows use. */
  static final int SMALL_SHAPE = 1000;

  private final Path file;
  private final ReadOptions options;
  private BoundedLineReader in;
  private long[] header;
  private boolean ended;
  private long lineNumber;
  private long rowsBefore;
  private int[] labels = new int[1024];
  private int[] indptr = new int[1025];
  private int[] indices = new int[4096];
  private float[] values = new float[4096];
  private int rows;
  private int maxColumn = -1;
  private int maxLabel = -1;
  private int columnLimit;
  private int classLimit;

  private DatasetReader(Path file, ReadOptions options) {
    this.file = file;
    this.options = options;
    this.columnLimit = options.columns();
    this.classLimit = options.classes();
  }

  /** Reads {@code file} as {@code options} say. */
  public static Dataset read(Path file, ReadOptions options) throws IOException {
    DatasetReader reader = open(file, options);
    try {
      reader.readRows(Integer.MAX_VALUE, Long.MAX_VALUE);
      reader.checkHeaderAgainstRows();
      return reader.takeRows();
    } finally {
      reader.close();
    }
  }

  /**
   * A reader of the example lines of an Extreme Classification file whose lines are read and
   * numbered elsewhere, for a reader that splits the file across workers: each worker's reader gets
   * the file's header line ({@code null} for an empty file) and then any of its other lines through
   * {@link #addLine}, with the rules and errors of {@link #read}. Whether the file has as many rows
   * as its header declares is {@link #checkLineCount}'s, given the count of all its lines.
   */
  public static DatasetReader ofLines(Path file, ReadOptions options, String headerLine)
      throws DataFileException {
    if (options.format() != TextFormat.EXTREME_CLASSIFICATION) {
      throw new IllegalArgumentException(
          "ofLines reads Extreme Classification files, whose header gives D and K; not "
              + options.format());
    }
    DatasetReader reader = new DatasetReader(file, options);
    if (headerLine == null) {
      throw new DataFileException(file, 0, "the file is empty");
    }
    reader.lineNumber = 1;
    reader.readHeader(headerLine);
    return reader;
  }

  /** D: the options' or the header's (a reader of {@link #ofLines}). */
  public int columns() {
    return columnLimit;
  }

  /** K: the options' or the header's (a reader of {@link #ofLines}). */
  public int classes() {
    return classLimit;
  }

  /**
   * Adds line {@code lineNumber} (1-based, after the header) of the file to the rows that {@link
   * #takeRows} returns, or refuses it as {@link #read} would.
   */
  public void addLine(String line, long lineNumber) throws DataFileException {
    this.lineNumber = lineNumber;
    if (lineNumber - 1 > header[0]) {
      refuseBeyondHeader(line);
      return;
    }
    parseExample(line);
  }

  /**
   * Refuses a file of {@code lines} lines, its header's included, that holds fewer rows than its
   * header declares, or none (a reader of {@link #ofLines}).
   */
  public void checkLineCount(long lines) throws DataFileException {
    lineNumber = lines;
    rowsBefore = Math.min(header[0], lines - 1) - rows;
    checkEnd();
  }

  /** Opens {@code file} for {@link #readRows}; a file that cannot be opened names itself. */
  static DatasetReader open(Path file, ReadOptions options) throws IOException {
    DatasetReader reader = new DatasetReader(file, options);
    reader.in = BoundedLineReader.open(file);
    return reader;
  }

  /**
   * Reads examples until {@code maxRows} are held or {@code maxValues} stored values are reached,
   * or the file ends; at the end, checks the file as a whole (empty, shorter than its header, no
   * examples). Returns false once the file has ended.
   */
  boolean readRows(int maxRows, long maxValues) throws IOException {
    if (ended) {
      return false;
    }
    try {
      String line;
      while (rows < maxRows && indptr[rows] < maxValues && (line = in.readLine()) != null) {
        lineNumber++;
        if (header == null && options.format() == TextFormat.EXTREME_CLASSIFICATION) {
          readHeader(line);
          continue;
        }
        if (options.format() == TextFormat.LIBSVM) {
          int hash = line.indexOf('#');
          line = hash >= 0 ? line.substring(0, hash) : line;
          if (line.isBlank()) {
            continue;
          }
        } else if (rowsBefore + rows == header[0]) {
          refuseBeyondHeader(line);
          continue;
        }
        parseExample(line);
      }
      if (rows < maxRows && indptr[rows] < maxValues) {
        ended = true;
        checkEnd();
      }
    } catch (DataFileException e) {
      throw e;
    } catch (IOException e) {
      throw IoErrors.explain(
          file, lineNumber > 0 ? "cannot read line " + (lineNumber + 1) : "cannot read", e);
    }
    return !ended || rows > 0;
  }

  /** A line after the rows the header declares may only be blank. */
  private void refuseBeyondHeader(String line) throws DataFileException {
    if (!line.isBlank()) {
      throw error("the header declares " + header[0] + " rows but the file has more");
    }
  }

  private void readHeader(String line) throws DataFileException {
    header = parseHeader(line);
    if (header[0] > Integer.MAX_VALUE - 8) {
      throw error("header declares " + header[0] + " rows, more than a Java array holds");
    }
    columnLimit = columnLimit >= 0 ? columnLimit : (int) header[1];
    classLimit = classLimit > 0 ? classLimit : (int) header[2];
  }

  private void checkEnd() throws DataFileException {
    long total = rowsBefore + rows;
    if (lineNumber == 0) {
      throw new DataFileException(file, 0, "the file is empty");
    }
    if (header != null && total < header[0]) {
      throw new DataFileException(
          file,
          lineNumber,
          "the file ends after " + total + " of the " + header[0] + " rows its header declares");
    }
    if (total == 0) {
      throw new DataFileException(file, lineNumber, "the file has no examples");
    }
  }

  /**
   * The examples read since the last call, as a dataset of the options' shape (or the file's, when
   * the whole file was read); the buffers are then reused for the next rows.
   */
  public Dataset takeRows() throws DataFileException {
    int columns = columnLimit >= 0 ? columnLimit : maxColumn + 1;
    int classes = classLimit > 0 ? classLimit : inferredClasses();
    Dataset block =
        new Dataset(
            new SparseFeatures(
                rows,
                columns,
                Arrays.copyOf(indptr, rows + 1),
                Arrays.copyOf(indices, indptr[rows]),
                Arrays.copyOf(values, indptr[rows])),
            Arrays.copyOf(labels, rows),
            classes);
    rowsBefore += rows;
    rows = 0;
    return block;
  }

  /** The examples taken so far by {@link #takeRows}. */
  long rowsTaken() {
    return rowsBefore;
  }

  void close() throws IOException {
    in.close();
  }

  /**
   * Refuses a header whose D or K, where the options do not fix them, is more than {@link
   * #SPARSE_SLACK} times what the rows use (the largest index + 1) and more than {@link
   * #SMALL_SHAPE}: the header sizes the model, so a typo in it would make a model of that many
   * features or classes from a file that uses a few.
   */
  private void checkHeaderAgainstRows() throws DataFileException {
    if (header == null) {
      return;
    }
    if (options.columns() < 0) {
      checkHeaderSize(
          header[1], maxColumn, "D", "features", "feature index", options.featureBase());
    }
    if (options.classes() <= 0) {
      checkHeaderSize(header[2], maxLabel, "L", "classes", "label", options.labelBase());
    }
  }

  private void checkHeaderSize(
      long declared, int largest, String field, String things, String index, int base)
      throws DataFileException {
    long used = largest + 1L;
    if (declared > SMALL_SHAPE && declared > SPARSE_SLACK * used) {
      throw new DataFileException(
          file,
          1,
          "the header declares "
              + field
              + " = "
              + declared
              + " "
              + things
              + ", but the largest "
              + index
              + " in the rows is "
              + (largest + base)
              + "; a header more than "
              + SPARSE_SLACK
              + " times what the rows use is refused, since it would size the model; give "
              + field
              + " = "
              + used
              + " (or the true size, if the rows are a sample)");
    }
  }

  /**
   * K from the labels when nothing gives it: the largest label + 1, refused when most of those
   * classes never occur, since a stray large label would otherwise make a model of that many
   * classes.
   */
  private int inferredClasses() throws DataFileException {
    int classes = maxLabel + 1;
    long distinct = Arrays.stream(labels, 0, rows).distinct().count();
    if (classes > SMALL_SHAPE && classes > SPARSE_SLACK * distinct) {
      throw new DataFileException(
          file,
          0,
          "the largest label, "
              + (maxLabel + options.labelBase())
              + ", makes K = "
              + classes
              + " classes, but only "
              + distinct
              + " distinct labels occur; number the classes from "
              + options.labelBase()
              + " without large gaps");
    }
    return classes;
  }

  private long[] parseHeader(String line) throws DataFileException {
    String[] parts = line.trim().split("\\s+");
    if (parts.length != 3) {
      throw error("expected the header 'N D L' (rows, features, labels), found '" + line + "'");
    }
    long[] header = new long[3];
    for (int i = 0; i < 3; i++) {
      try {
        header[i] = Long.parseLong(parts[i]);
      } catch (NumberFormatException e) {
        header[i] = -1;
      }
      if (header[i] < (i == 2 ? 1 : 0) || header[i] > Integer.MAX_VALUE) {
        throw error(
            "header field " + "NDL".charAt(i) + " = '" + parts[i] + "' is not a valid size");
      }
    }
    return header;
  }

  private void parseExample(String line) throws DataFileException {
    int end = line.length();
    int pos = 0;
    if (options.format() == TextFormat.LIBSVM) {
      while (pos < end && Character.isWhitespace(line.charAt(pos))) {
        pos++;
      }
    }
    int labelEnd = pos;
    while (labelEnd < end && !Character.isWhitespace(line.charAt(labelEnd))) {
      labelEnd++;
    }
    if (labelEnd == pos || line.substring(pos, labelEnd).contains(":")) {
      throw error("the example has no label");
    }
    int comma = line.indexOf(',', pos);
    int firstLabelEnd = comma >= 0 && comma < labelEnd ? comma : labelEnd;
    int label = parseIndex(line, pos, firstLabelEnd, "label", options.labelBase());
    for (int c = firstLabelEnd;
        c < labelEnd; ) { // the other labels are dropped, but must be well formed
      int next = line.indexOf(',', c + 1);
      next = next >= 0 && next < labelEnd ? next : labelEnd;
      parseIndex(line, c + 1, next, "label", options.labelBase());
      c = next;
    }
    checkLimit(label, classLimit, "label", options.labelBase(), "K");
    maxLabel = Math.max(maxLabel, label);
    growRows();
    labels[rows] = label;
    int rowStart = indptr[rows];
    int nz = rowStart;
    pos = labelEnd;
    while (true) {
      while (pos < end && Character.isWhitespace(line.charAt(pos))) {
        pos++;
      }
      if (pos == end) {
        break;
      }
      int tokenEnd = pos;
      while (tokenEnd < end && !Character.isWhitespace(line.charAt(tokenEnd))) {
        tokenEnd++;
      }
      int colon = line.indexOf(':', pos);
      if (colon < 0 || colon >= tokenEnd) {
        throw error("'" + line.substring(pos, tokenEnd) + "' is not a feature:value pair");
      }
      int column = parseIndex(line, pos, colon, "feature index", options.featureBase());
      checkLimit(column, columnLimit, "feature index", options.featureBase(), "D");
      maxColumn = Math.max(maxColumn, column);
      float value = parseValue(line, colon + 1, tokenEnd);
      growValues(nz + 1);
      indices[nz] = column;
      values[nz] = value;
      nz++;
      pos = tokenEnd;
    }
    sortRow(rowStart, nz);
    indptr[++rows] = nz;
  }

  private int parseIndex(String line, int from, int to, String what, int base)
      throws DataFileException {
    String token = line.substring(from, to);
    int value;
    try {
      value = Integer.parseInt(token);
    } catch (NumberFormatException e) {
      throw error(what + " '" + token + "' is not an integer");
    }
    if (value < base) {
      throw error(
          what + " " + value + " is below " + base + " (indices are " + base + "-based here)");
    }
    if ((long) value - base >= MemoryBudget.MAX_ARRAY_LENGTH) {
      throw error(what + " " + value + " is too large: the sizes it implies do not fit an array");
    }
    return value - base;
  }

  private void checkLimit(int index, int limit, String what, int base, String name)
      throws DataFileException {
    if (limit >= 0 && index >= limit) {
      throw new OutOfShapeException(
          file, lineNumber, what + " " + (index + base) + " is beyond " + name + " = " + limit);
    }
  }

  private float parseValue(String line, int from, int to) throws DataFileException {
    String token = line.substring(from, to);
    float value;
    try {
      value = parseFloat(token);
    } catch (NumberFormatException e) {
      throw error("feature value '" + token + "' is not a number");
    }
    if (!Float.isFinite(value)) {
      throw error("feature value '" + token + "' is not finite as a float");
    }
    return value;
  }

  /**
   * {@link Float#parseFloat}'s value, found through {@link Double#parseDouble}, which is several
   * times faster on the 8 or 9 significant digits a float is written with. Rounding the decimal to
   * the nearest double and that to the nearest float gives the nearest float unless the double
   * lands exactly on a midpoint between two floats: every midpoint is a double, so the double
   * cannot pass one. On a midpoint the decimal is rounded again, directly.
   */
  static float parseFloat(String token) {
    double d = Double.parseDouble(token);
    float f = (float) d;
    if ((double) f == d || Double.isNaN(d)) {
      return f;
    }
    if (Float.isInfinite(f)) {
      // Just above the largest float the rounding to infinity has a midpoint of its own.
      return Float.parseFloat(token);
    }
    double neighbour = d > f ? Math.nextUp(f) : Math.nextDown(f);
    return d == ((double) f + neighbour) / 2 ? Float.parseFloat(token) : f;
  }

  /** Puts one row's pairs in increasing column order; a repeated column is an error. */
  private void sortRow(int from, int to) throws DataFileException {
    boolean sorted = true;
    for (int j = from + 1; j < to; j++) {
      sorted &= indices[j] > indices[j - 1];
    }
    if (sorted) {
      return;
    }
    long[] packed = new long[to - from];
    for (int j = from; j < to; j++) {
      packed[j - from] =
          ((long) indices[j] << 32) | (Float.floatToRawIntBits(values[j]) & 0xffffffffL);
    }
    Arrays.sort(packed);
    for (int j = from; j < to; j++) {
      indices[j] = (int) (packed[j - from] >>> 32);
      values[j] = Float.intBitsToFloat((int) packed[j - from]);
      if (j > from && indices[j] == indices[j - 1]) {
        throw error("feature index " + (indices[j] + options.featureBase()) + " appears twice");
      }
    }
  }

  private void growRows() {
    if (rows + 1 >= labels.length) {
      labels = Arrays.copyOf(labels, labels.length * 2);
      indptr = Arrays.copyOf(indptr, indptr.length * 2);
    }
  }

  private void growValues(int needed) {
    if (needed > indices.length) {
      int size = Math.max(needed, (int) Math.min(Integer.MAX_VALUE - 8, indices.length * 2L));
      indices = Arrays.copyOf(indices, size);
      values = Arrays.copyOf(values, size);
    }
  }

  private DataFileException error(String reason) {
    return new DataFileException(file, lineNumber, reason);
  }
}
