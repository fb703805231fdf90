package org.largecat.prepare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetReader;
import org.largecat.data.ReadOptions;
import org.largecat.data.SparseFeatures;
import org.largecat.data.TextFormat;

/**
 * Each prepared set from its installed Debian package: N, D, K, label ranges, known values, and a
 * round trip of the written files through {@link DatasetReader}. Where a package is missing the
 * test is skipped with a message naming it; CI, which installs them, sets {@code
 * largecat.test.requireDatasets=true} so that a missing package fails there instead.
 */
class InstalledDatasetsTest {
  private static final String REQUIRE = "largecat.test.requireDatasets";

  @TempDir Path dir;

  private static void assumeInstalled(boolean installed, DebianPackage debian, String set) {
    if (installed) {
      return;
    }
    String message =
        set
            + " needs Debian's "
            + debian.name()
            + ", not installed here ("
            + debian.installLine()
            + ")";
    if (Boolean.getBoolean(REQUIRE)) {
      fail(message + "; " + REQUIRE + "=true requires it");
    }
    System.err.println("SKIPPED: " + message);
    Assumptions.abort(message);
  }

  /** Writes the set, reads both files back, and checks they hold exactly what was written. */
  private void assertRoundTrip(PreparedSet set) throws IOException {
    set.write(dir);
    ReadOptions options = ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION);
    assertSame(set.train(), DatasetReader.read(dir.resolve("train.txt"), options));
    assertSame(set.test(), DatasetReader.read(dir.resolve("test.txt"), options));
    assertEquals(
        set.classNames(), Files.readAllLines(dir.resolve("classes.txt"), StandardCharsets.UTF_8));
    String readme = Files.readString(dir.resolve("README.txt"));
    assertTrue(
        readme.contains("D: " + set.train().columns() + "\nK: " + set.train().classes()), readme);
  }

  private static void assertSame(Dataset written, Dataset read) {
    assertEquals(written.rows(), read.rows());
    assertEquals(written.columns(), read.columns());
    assertEquals(written.classes(), read.classes());
    assertArrayEquals(written.labels(), read.labels());
    SparseFeatures x = (SparseFeatures) read.features();
    for (int n = 0; n < read.rows(); n += Math.max(1, read.rows() / 500)) {
      for (int j = x.indptr()[n]; j < x.indptr()[n + 1]; j++) {
        assertEquals(
            written.features().get(n, x.indices()[j]),
            x.values()[j],
            "row " + n + ", column " + x.indices()[j]);
      }
      assertEquals(written.features().squaredNorm(n), x.squaredNorm(n), 0, "row " + n);
    }
  }

  private static void assertLabelsWithin(Dataset d) {
    for (int y : d.labels()) {
      assertTrue(y >= 0 && y < d.classes(), "label " + y);
    }
  }

  @Test
  void fashionMnistKeepsItsOwnSplitAndScalesPixelsTo01() throws IOException {
    assumeInstalled(
        FashionMnist.installed(FashionMnist.DEFAULT_DIR), FashionMnist.PACKAGE, "fashion-mnist");
    PreparedSet set = FashionMnist.prepare(FashionMnist.DEFAULT_DIR);
    assertEquals(60_000, set.train().rows());
    assertEquals(10_000, set.test().rows());
    assertEquals(784, set.train().columns());
    assertEquals(10, set.train().classes());
    assertEquals(9, set.train().labels()[0]); // the first training image is an ankle boot
    assertEquals(9, set.test().labels()[0]);
    assertEquals(2, set.test().labels()[1]);
    assertEquals(
        1f / 255, set.train().features().get(0, 96)); // row 3, column 12 of the first image holds 1
    assertEquals(13f / 255, set.train().features().get(0, 99));
    for (int count : set.train().classCounts()) {
      assertEquals(6_000, count);
    }
    float max = 0;
    for (float v : set.train().features().columnMaxAbs()) {
      max = Math.max(max, v);
    }
    assertEquals(1f, max);
    assertTrue(set.source().contains(FashionMnist.PACKAGE.name() + " "), set.source());
    assertRoundTrip(set);
  }

  @Test
  void kjvNextWordHasTheMeasuredShapeAndTheFirstWordsOfGenesis() throws IOException {
    assumeInstalled(KjvNextWord.installed(), KjvNextWord.PACKAGE, "kjv-nextword");
    PreparedSet set = KjvNextWord.prepare();
    assertEquals(791_447, set.train().rows() + set.test().rows());
    assertEquals(79_144, set.test().rows());
    assertEquals(12_544, set.train().classes());
    assertEquals(12_544, set.train().columns());
    assertEquals(List.of("the", "and", "of"), set.classNames().subList(0, 3));
    // "In the beginning God": the first example is "god", "beginning" 1 back, "the" 2, "in" 3.
    List<String> names = set.classNames();
    Dataset train = set.train();
    assertEquals("god", names.get(train.labels()[0]));
    assertEquals(1f, train.features().get(0, names.indexOf("beginning")));
    assertEquals(0.5f, train.features().get(0, names.indexOf("the")));
    assertEquals(1f / 3, train.features().get(0, names.indexOf("in")));
    assertEquals(
        "amen",
        names.get(set.test().labels()[set.test().rows() - 1])); // Revelation 22:21 ends "Amen."
    assertLabelsWithin(train);
    assertLabelsWithin(set.test());
    assertRoundTrip(set);
  }

  @Test
  void glassHoldsOutTenPercentStratifiedAsThePaperDid() throws IOException {
    assumeInstalled(RDataset.GLASS.installed(), RDataset.GLASS.debianPackage(), "glass");
    PreparedSet set = RDataset.GLASS.prepare(1);
    assertEquals(192, set.train().rows());
    assertEquals(22, set.test().rows());
    assertEquals(9, set.train().columns());
    assertEquals(List.of("1", "2", "3", "5", "6", "7"), set.classNames());
    assertStandardized(set.train());
    assertRoundTrip(set);
  }

  @Test
  void letterKeepsTheUciSplitOfSixteenThousandAndFourThousand() throws IOException {
    assumeInstalled(RDataset.LETTER.installed(), RDataset.LETTER.debianPackage(), "letter");
    PreparedSet set = RDataset.LETTER.prepare(1);
    assertEquals(16_000, set.train().rows());
    assertEquals(4_000, set.test().rows());
    assertEquals(16, set.train().columns());
    assertEquals(26, set.train().classes());
    assertEquals("T", set.classNames().get(set.train().labels()[0])); // the first UCI record is a T
    assertEquals("I", set.classNames().get(set.train().labels()[1]));
    assertStandardized(set.train());
    assertLabelsWithin(set.test());
    assertRoundTrip(set);
  }

  @Test
  void detergentHasSixBrandsAndTheirSixPrices() throws IOException {
    assumeInstalled(
        RDataset.DETERGENT.installed(), RDataset.DETERGENT.debianPackage(), "detergent");
    PreparedSet set = RDataset.DETERGENT.prepare(1);
    assertEquals(2_657, set.train().rows() + set.test().rows());
    assertEquals(531, set.test().rows());
    assertEquals(6, set.train().columns());
    assertEquals(List.of("All", "EraPlus", "Solo", "Surf", "Tide", "Wisk"), set.classNames());
    int[] counts = set.train().classCounts();
    int[] testCounts = set.test().classCounts();
    for (int k = 0; k < 6; k++) {
      counts[k] += testCounts[k];
    }
    assertArrayEquals(
        new int[] {87, 507, 253, 406, 701, 703}, counts); // R's table(detergent$choice)
    assertTrue(
        set.recipe().contains("TidePrice, WiskPrice, EraPlusPrice, SurfPrice, SoloPrice, AllPrice"),
        set.recipe());
    assertStandardized(set.train());
    assertRoundTrip(set);
  }

  /** Every training column has mean 0 and sample standard deviation 1. */
  private static void assertStandardized(Dataset train) {
    for (int j = 0; j < train.columns(); j++) {
      double sum = 0;
      double squares = 0;
      for (int n = 0; n < train.rows(); n++) {
        double v = train.features().get(n, j);
        sum += v;
        squares += v * v;
      }
      double mean = sum / train.rows();
      assertEquals(0, mean, 1e-5, "column " + j);
      assertEquals(
          1, (squares - train.rows() * mean * mean) / (train.rows() - 1), 1e-4, "column " + j);
    }
  }
}
