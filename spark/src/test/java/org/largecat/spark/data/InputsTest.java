package org.largecat.spark.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.attribute.NominalAttribute;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.largecat.data.DataFileException;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetReader;
import org.largecat.data.ReadOptions;
import org.largecat.data.SparseFeatures;
import org.largecat.data.TextFormat;
import org.largecat.spark.Frames;

class InputsTest {
  private static final ReadOptions XC = ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION);
  private static SparkSession spark;
  @TempDir static Path dir;
  private static Path xcFile;

  @BeforeAll
  static void start() throws IOException {
    spark = Frames.localSession();
    // Multi-label rows, unsorted features, empty rows and blank lines after the last row.
    Random random = new Random(7);
    int rows = 300;
    StringBuilder text = new StringBuilder(rows + " 40 9\n");
    for (int n = 0; n < rows; n++) {
      text.append(random.nextInt(9));
      if (n % 5 == 0) {
        text.append(',').append(random.nextInt(9));
      }
      for (int j = 39; j >= 0; j -= 1 + random.nextInt(12)) {
        text.append(' ').append(j).append(':').append(random.nextInt(2000) / 100f - 10);
      }
      text.append('\n');
    }
    text.append("\n\n");
    xcFile = Files.writeString(dir.resolve("train.txt"), text);
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7})
  void xcTextGivesTheSingleMachineRowsInAnyPartitioning(int partitions) throws IOException {
    LabeledFrame frame = XcTextSource.read(spark, xcFile.toString(), XC, partitions);
    assertTrue(frame.frame().javaRDD().getNumPartitions() >= partitions);
    assertSameRows(DatasetReader.read(xcFile, XC), frame);
  }

  @Test
  void xcTextTakesTheTrainingShapeAndBases() throws IOException {
    Path file = Files.writeString(dir.resolve("one-based.txt"), "2 3 2\n2 1:1.5 3:2\n1,2 2:-1\n");
    ReadOptions options = XC.withBases(1, 1).withShape(5, 4);
    LabeledFrame frame = XcTextSource.read(spark, file.toString(), options, 2);
    assertEquals(5, frame.columns());
    assertEquals(4, frame.classes());
    assertSameRows(DatasetReader.read(file, options), frame);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void aBadLineFailsWithFileLineAndReasonAsOnOneMachine(int partitions) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(xcFile));
    lines.set(250, "3 7:x");
    Path bad = Files.write(dir.resolve("bad-" + partitions + ".txt"), lines);
    String expected =
        assertThrows(DataFileException.class, () -> DatasetReader.read(bad, XC)).getMessage();
    assertEquals(bad + ":251: feature value 'x' is not a number", expected);
    LabeledFrame frame = XcTextSource.read(spark, bad.toString(), XC, partitions);
    Throwable failure = assertThrows(Exception.class, () -> frame.frame().collectAsList());
    assertEquals(expected, dataFileCause(failure).getMessage());
  }

  @Test
  void headerAndLengthProblemsAreRefusedBeforeAnyRowIsRead() throws IOException {
    for (String text : List.of("", "3 4\n", "3 4 2\n0 1:1\n", "0 4 2\n", "1 4 2\n0 1:1\n1 2:2\n")) {
      Path file = Files.writeString(dir.resolve("short.txt"), text);
      String expected =
          assertThrows(DataFileException.class, () -> DatasetReader.read(file, XC)).getMessage();
      Throwable failure =
          assertThrows(
              Exception.class,
              () -> XcTextSource.read(spark, file.toString(), XC, 2).frame().collectAsList());
      assertEquals(expected, dataFileCause(failure).getMessage(), text);
    }
  }

  @Test
  void parquetCsvAndLibsvmGiveLabelsFeaturesAndTheirShape() throws IOException {
    LabeledFrame xc = XcTextSource.read(spark, xcFile.toString(), XC, 2);
    String parquet = dir.resolve("train.parquet").toString();
    xc.frame().write().parquet(parquet);
    LabeledFrame back =
        Inputs.read(
            spark,
            parquet,
            InputFormat.ofName(parquet),
            ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION),
            2);
    assertEquals(40, back.columns());
    assertSameRows(DatasetReader.read(xcFile, XC), back);

    Path csv = Files.writeString(dir.resolve("iris.csv"), "a,label,b\n1.5,2,0\n-1,0,3\n");
    LabeledFrame fromCsv = Inputs.read(spark, csv.toString(), InputFormat.CSV, XC, 2);
    assertEquals(2, fromCsv.columns());
    assertEquals(3, fromCsv.classes());
    List<Row> rows = fromCsv.frame().collectAsList();
    assertEquals("[2.0,[1.5,0.0]]", rows.get(0).toString());
    assertEquals("[0.0,[-1.0,3.0]]", rows.get(1).toString());

    Path libsvm = Files.writeString(dir.resolve("t.libsvm"), "1 1:2 4:1\n0 2:-1\n");
    ReadOptions libsvmOptions = ReadOptions.of(TextFormat.LIBSVM);
    LabeledFrame fromLibsvm =
        Inputs.read(spark, libsvm.toString(), InputFormat.LIBSVM, libsvmOptions, 2);
    assertSameRows(DatasetReader.read(libsvm, libsvmOptions), fromLibsvm);
  }

  @Test
  void badFramesAreRefusedWithTheFix() throws IOException {
    Path noLabel = Files.writeString(dir.resolve("nolabel.csv"), "a,b\n1,2\n");
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> Inputs.read(spark, noLabel.toString(), InputFormat.CSV, XC, 1))
            .getMessage()
            .contains("no 'label' column"));
    Path libsvm = Files.writeString(dir.resolve("zero.libsvm"), "1 0:2\n");
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    Inputs.read(
                        spark,
                        libsvm.toString(),
                        InputFormat.LIBSVM,
                        ReadOptions.of(TextFormat.LIBSVM).withBases(0, 0),
                        1))
            .getMessage()
            .contains("1-based feature indices only"));
  }

  private static void assertSameRows(Dataset expected, LabeledFrame actual) {
    assertEquals(expected.columns(), actual.columns());
    assertEquals(expected.classes(), actual.classes());
    assertEquals(
        expected.classes(),
        ((NominalAttribute)
                org.apache.spark.ml.attribute.Attribute.fromStructField(
                    actual.frame().schema().apply(LabeledFrame.LABEL)))
            .getNumValues()
            .get());
    assertEquals(
        expected.columns(),
        AttributeGroup.fromStructField(actual.frame().schema().apply(LabeledFrame.FEATURES))
            .size());
    List<Row> rows = actual.frame().collectAsList();
    Dataset read = PartitionRows.read(rows.iterator(), 0, 1, actual.columns(), actual.classes());
    SparseFeatures want = (SparseFeatures) expected.features();
    SparseFeatures got = assertInstanceOf(SparseFeatures.class, read.features());
    assertArrayEquals(expected.labels(), read.labels());
    assertArrayEquals(want.indptr(), got.indptr());
    assertArrayEquals(want.indices(), got.indices());
    assertArrayEquals(want.values(), got.values());
  }

  /** The data file error behind a failed Spark job. */
  private static DataFileException dataFileCause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof DataFileException e) {
        return e;
      }
    }
    throw new AssertionError("no DataFileException behind " + failure, failure);
  }
}
