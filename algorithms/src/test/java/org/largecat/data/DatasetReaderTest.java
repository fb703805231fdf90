package org.largecat.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DatasetReaderTest {

  /** Float.parseFloat, the independent truth, against the reader's parse through double. */
  private static void assertParsesAsFloatDoes(String token) {
    assertEquals(
        Float.floatToRawIntBits(Float.parseFloat(token)),
        Float.floatToRawIntBits(DatasetReader.parseFloat(token)),
        token);
  }

  @Test
  void valuesParseToTheNearestFloatAsFloatParseFloatDoesEvenOnAndBesideMidpoints() {
    Random random = new Random(7);
    BigDecimal tiny = new BigDecimal("1e-70");
    for (int i = 0; i < 200_000; i++) {
      float f = Float.intBitsToFloat(random.nextInt());
      if (!Float.isFinite(f)) {
        continue;
      }
      assertParsesAsFloatDoes(Float.toString(f));
      assertParsesAsFloatDoes(Double.toString(f));
      // The exact midpoint between f and its neighbour, and decimals just either side of it, whose
      // nearest double is that midpoint: where rounding twice could go wrong.
      float g = Math.nextUp(f);
      BigDecimal mid =
          new BigDecimal((double) f).add(new BigDecimal((double) g)).divide(BigDecimal.TWO);
      BigDecimal step = tiny.multiply(mid.abs().max(BigDecimal.ONE));
      assertParsesAsFloatDoes(mid.toString());
      assertParsesAsFloatDoes(mid.add(step).toString());
      assertParsesAsFloatDoes(mid.subtract(step).toString());
      // A short decimal, as data files hold.
      assertParsesAsFloatDoes(
          (random.nextBoolean() ? "-" : "")
              + random.nextInt(10)
              + "."
              + (1 + random.nextInt(999_999_999))
              + (random.nextBoolean() ? "" : "e" + (random.nextInt(90) - 45)));
    }
    for (String edge :
        List.of(
            "0",
            "-0",
            "3.4028235e38",
            "3.4028236e38",
            "3.40282356779733661637539395458142568448e38",
            "3.4028235677973366e38",
            "1e39",
            "1.4e-45",
            "7e-46",
            "7.006492321624085e-46",
            "1e-50",
            "NaN",
            "Infinity",
            "-Infinity",
            "0x1.8p1",
            "1.5f",
            "2.5d")) {
      assertParsesAsFloatDoes(edge);
    }
  }

  private static final ReadOptions XC = ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION);

  @TempDir Path dir;

  private Path file(String text) throws IOException {
    Path f = dir.resolve("data.txt");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void extremeClassificationKeepsTheFirstLabelAndSortsFeatures() throws IOException {
    Dataset d = DatasetReader.read(file("3 5 4\n2,0 4:1.5 1:2\n3 0:-1\n0\n"), XC);
    assertEquals(3, d.rows());
    assertEquals(5, d.columns());
    assertEquals(4, d.classes());
    assertArrayEquals(new int[] {2, 3, 0}, d.labels());
    SparseFeatures x = (SparseFeatures) d.features();
    assertArrayEquals(new int[] {0, 2, 3, 3}, x.indptr());
    assertArrayEquals(new int[] {1, 4, 0}, x.indices());
    assertArrayEquals(new float[] {2f, 1.5f, -1f}, x.values());
  }

  @Test
  void libsvmIsOneBasedAndSkipsComments() throws IOException {
    Dataset d =
        DatasetReader.read(
            file("# header comment\n1 1:0.5 3:2 # trailing\n0 2:1\n\n"),
            ReadOptions.of(TextFormat.LIBSVM));
    assertEquals(2, d.rows());
    assertEquals(3, d.columns());
    assertEquals(2, d.classes());
    assertEquals(0.5f, d.features().get(0, 0));
    assertEquals(2f, d.features().get(0, 2));
    assertEquals(1f, d.features().get(1, 1));
  }

  @Test
  void oneBasedOptionShiftsIndicesAndLabels() throws IOException {
    Dataset d = DatasetReader.read(file("1 2 2\n2 2:7\n"), XC.withBases(1, 1));
    assertEquals(1, d.labels()[0]);
    assertEquals(7f, d.features().get(0, 1));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "malformed value      | 2 3 2\\n0 1:x\\n1 0:1\\n        | 2 | feature value 'x' is not a number",
        "pair without colon   | 2 3 2\\n0 1\\n1 0:1\\n          | 2 | '1' is not a feature:value pair",
        "index beyond D       | 2 3 2\\n0 3:1\\n1 0:1\\n        | 2 | feature index 3 is beyond D = 3",
        "label beyond K       | 2 3 2\\n0 0:1\\n2 0:1\\n        | 3 | label 2 is beyond K = 2",
        "NaN value            | 2 3 2\\n0 0:NaN\\n1 0:1\\n      | 2 | feature value 'NaN' is not finite",
        "infinite value       | 2 3 2\\n0 0:1e39\\n1 0:1\\n     | 2 | feature value '1e39' is not finite",
        "repeated feature     | 2 3 2\\n0 2:1 1:1 2:3\\n1 0:1\\n | 2 | feature index 2 appears twice",
        "negative index       | 2 3 2\\n0 -1:1\\n1 0:1\\n       | 2 | feature index -1 is below 0",
        "missing label        | 2 3 2\\n0:1 1:2\\n1 0:1\\n      | 2 | the example has no label",
        "short file           | 3 3 2\\n0 0:1\\n1 0:1\\n        | 3 | the file ends after 2 of the 3 rows",
        "extra rows           | 1 3 2\\n0 0:1\\n1 0:1\\n        | 3 | declares 1 rows but the file has more",
        "bad header           | 2 3\\n0 0:1\\n                  | 1 | expected the header 'N D L'",
        "non-integer header   | 2 x 2\\n0 0:1\\n                | 1 | header field D = 'x' is not a valid size",
        "empty file           |                               | 0 | the file is empty"
      })
  void badInputNamesTheFileLineAndReason(String what, String text, int line, String reason)
      throws IOException {
    Path f = file(text == null ? "" : text.strip().replace("\\n", "\n"));
    DataFileException e =
        assertThrows(DataFileException.class, () -> DatasetReader.read(f, XC), what);
    assertEquals(line, e.line(), what + ": " + e.getMessage());
    assertTrue(
        e.getMessage().startsWith(f + (line > 0 ? ":" + line + ": " : ": ")), e.getMessage());
    assertTrue(e.getMessage().contains(reason), what + ": " + e.getMessage());
  }

  @Test
  void testFileMustFitTheTrainingShape() throws IOException {
    Path f = file("0 5:1\n");
    DataFileException e =
        assertThrows(
            DataFileException.class,
            () -> DatasetReader.read(f, ReadOptions.of(TextFormat.LIBSVM).withShape(4, 3)));
    assertTrue(e.getMessage().contains(":1: feature index 5 is beyond D = 4"), e.getMessage());
  }

  @Test
  void writerRoundTrips() throws IOException {
    SyntheticSet set = SyntheticData.linearSoftmax(50, 7, 4, 1.0, 3);
    Path f = dir.resolve("written.txt");
    DatasetWriter.write(set.data(), f);
    Dataset back = DatasetReader.read(f, XC);
    assertArrayEquals(set.data().labels(), back.labels());
    assertArrayEquals(
        ((DenseFeatures) set.data().features()).values(),
        ((SparseFeatures) back.features()).toDense().values());
  }

  @Test
  void preprocessingDropsUnseenClassesAndScalesByTheTrainingMaximum() {
    Dataset train =
        new Dataset(new DenseFeatures(2, 2, new float[] {2, -4, 1, 0}), new int[] {0, 2}, 3);
    Dataset test =
        new Dataset(
            new DenseFeatures(3, 2, new float[] {4, 4, 1, 1, 0, 2}), new int[] {1, 2, 0}, 3);
    Dataset kept = Preprocessing.dropUnseenClasses(train, test);
    assertArrayEquals(new int[] {2, 0}, kept.labels());
    Dataset[] scaled = Preprocessing.scaleByTrainingMaximum(train, kept);
    assertArrayEquals(
        new float[] {1, -1, 0.5f, 0}, ((DenseFeatures) scaled[0].features()).values());
    assertArrayEquals(
        new float[] {0.5f, 0.25f, 0, 0.5f}, ((DenseFeatures) scaled[1].features()).values());
  }

  @Test
  void arToyHasTheRequestedShapeAndItsProbabilitiesSumToOne() {
    SyntheticSet toy = SyntheticData.arToy(1000, 5000, 9);
    assertEquals(0, toy.data().columns());
    double sum = 0;
    for (double logP : toy.biases()) {
      sum += Math.exp(logP);
    }
    assertEquals(1.0, sum, 1e-12);
  }
}
