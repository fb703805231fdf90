package org.largecat.spark.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.attribute.NominalAttribute;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.largecat.data.DataFileException;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetReader;
import org.largecat.data.ReadOptions;
import org.largecat.data.SparseFeatures;
import org.largecat.data.TextFormat;

/**
 * Reads an Extreme Classification text file (header {@code N D L}, then {@code l1,l2 f:v f:v}) as a
 * {@link LabeledFrame}, split across partitions by Hadoop's text input: each partition parses its
 * own lines with the rules and error messages of the single-machine {@link DatasetReader} (first
 * label kept), given the header line, which the driver reads for D and K. Line numbers for the
 * messages come from one counting pass over the partitions before the parsing one.
 */
public final class XcTextSource {
  private XcTextSource() {}

  /**
   * Reads {@code path} in at least {@code partitions} partitions; {@code options} (Extreme
   * Classification) give the index bases and, for a test set, the training set's D and K. A bad
   * header or a file shorter than its header is refused here; a bad example line fails the first
   * action on the frame with a {@link DataFileException} (in an {@link UncheckedIOException})
   * naming file and line.
   */
  public static LabeledFrame read(
      SparkSession spark, String path, ReadOptions options, int partitions) throws IOException {
    if (options.format() != TextFormat.EXTREME_CLASSIFICATION) {
      throw new IllegalArgumentException("XcTextSource reads Extreme Classification text");
    }
    JavaRDD<String> lines =
        JavaSparkContext.fromSparkContext(spark.sparkContext()).textFile(path, partitions);
    List<String> first = lines.take(1);
    String header = first.isEmpty() ? null : first.getFirst();
    DatasetReader shape = DatasetReader.ofLines(Path.of(path), options, header);
    List<Long> counts =
        lines
            .mapPartitions(
                (Iterator<String> it) -> {
                  long n = 0;
                  for (; it.hasNext(); it.next()) {
                    n++;
                  }
                  return List.of(n).iterator();
                })
            .collect();
    long[] firstLine = new long[counts.size()];
    long total = 0;
    for (int p = 0; p < counts.size(); p++) {
      firstLine[p] = total + 1;
      total += counts.get(p);
    }
    shape.checkLineCount(total);
    int columns = shape.columns();
    int classes = shape.classes();
    int featureBase = options.featureBase();
    int labelBase = options.labelBase();
    JavaRDD<Row> rows =
        lines.mapPartitionsWithIndex(
            (partition, it) -> {
              DatasetReader reader =
                  DatasetReader.ofLines(
                      Path.of(path),
                      new ReadOptions(
                          TextFormat.EXTREME_CLASSIFICATION,
                          featureBase,
                          labelBase,
                          columns,
                          classes),
                      header);
              return new PartitionLines(reader, it, firstLine[partition]);
            },
            true);
    return new LabeledFrame(
        spark.createDataFrame(rows, schema(columns, classes)), columns, classes);
  }

  /** The columns of a {@link LabeledFrame} with D and K in their ML attributes. */
  static StructType schema(int columns, int classes) {
    return new StructType(
        new StructField[] {
          new StructField(
              LabeledFrame.LABEL,
              DataTypes.DoubleType,
              false,
              NominalAttribute.defaultAttr()
                  .withName(LabeledFrame.LABEL)
                  .withNumValues(classes)
                  .toMetadata()),
          new StructField(
              LabeledFrame.FEATURES,
              SQLDataTypes.VectorType(),
              false,
              new AttributeGroup(LabeledFrame.FEATURES, columns).toMetadata())
        });
  }

  /**
   * The rows of a partition's lines, parsed {@link #BLOCK} lines at a time so that a partition is
   * never held twice (as parsed arrays and as rows).
   */
  private static final class PartitionLines implements Iterator<Row> {
    private static final int BLOCK = 4096;
    private final DatasetReader reader;
    private final Iterator<String> lines;
    private long lineNumber;
    private List<Row> block = List.of();
    private int next;

    PartitionLines(DatasetReader reader, Iterator<String> lines, long firstLine) {
      this.reader = reader;
      this.lines = lines;
      this.lineNumber = firstLine;
    }

    @Override
    public boolean hasNext() {
      while (next == block.size() && lines.hasNext()) {
        try {
          for (int i = 0; i < BLOCK && lines.hasNext(); i++, lineNumber++) {
            String text = lines.next();
            if (lineNumber > 1) {
              reader.addLine(text, lineNumber);
            }
          }
          block = rowsOf(reader.takeRows());
        } catch (DataFileException e) {
          throw new UncheckedIOException(e);
        }
        next = 0;
      }
      return next < block.size();
    }

    @Override
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return block.get(next++);
    }
  }

  private static List<Row> rowsOf(Dataset d) {
    SparseFeatures x = (SparseFeatures) d.features();
    int[] indptr = x.indptr();
    List<Row> rows = new ArrayList<>(d.rows());
    for (int n = 0; n < d.rows(); n++) {
      int from = indptr[n];
      int nonzeros = indptr[n + 1] - from;
      double[] values = new double[nonzeros];
      for (int j = 0; j < nonzeros; j++) {
        values[j] = x.values()[from + j];
      }
      rows.add(
          RowFactory.create(
              (double) d.labels()[n],
              Vectors.sparse(
                  d.columns(), Arrays.copyOfRange(x.indices(), from, from + nonzeros), values)));
    }
    return rows;
  }
}
