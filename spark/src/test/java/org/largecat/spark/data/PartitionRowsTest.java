package org.largecat.spark.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.DenseFeatures;
import org.largecat.data.SparseFeatures;

class PartitionRowsTest {
  @Test
  void denseRowsStayDense() {
    Dataset d =
        PartitionRows.read(
            List.of(
                    RowFactory.create(1.0, Vectors.dense(0.5, -2, 0)),
                    RowFactory.create(0.0, Vectors.dense(0, 0, 3)))
                .iterator(),
            0,
            1,
            3,
            2);
    DenseFeatures x = assertInstanceOf(DenseFeatures.class, d.features());
    assertArrayEquals(new float[] {0.5f, -2, 0, 0, 0, 3}, x.values());
    assertArrayEquals(new int[] {1, 0}, d.labels());
  }

  @Test
  void oneSparseRowMakesThePartitionCsr() {
    Dataset d =
        PartitionRows.read(
            List.of(
                    RowFactory.create(2, Vectors.sparse(4, new int[] {1, 3}, new double[] {7, -1})),
                    RowFactory.create(0, Vectors.dense(1, 0, 0, 2)))
                .iterator(),
            0,
            1,
            4,
            3);
    SparseFeatures x = assertInstanceOf(SparseFeatures.class, d.features());
    assertArrayEquals(new int[] {0, 2, 6}, x.indptr());
    assertArrayEquals(new int[] {1, 3, 0, 1, 2, 3}, x.indices());
    assertArrayEquals(new float[] {7, -1, 1, 0, 0, 2}, x.values());
    assertEquals(3, d.classes());
  }

  @Test
  void badRowsAreRefusedWithTheirPositionAndTheFix() {
    assertMessage(RowFactory.create(2.5, Vectors.dense(1, 2)), "label of row 1", "StringIndexer");
    assertMessage(RowFactory.create(3.0, Vectors.dense(1, 2)), "not a class index in [0, 3)", "");
    assertMessage(RowFactory.create(1.0, Vectors.dense(1, 2, 3)), "have size 3", "");
    assertMessage(RowFactory.create(1.0, Vectors.dense(1, Double.NaN)), "column 1", "impute");
    assertMessage(RowFactory.create(1.0, Vectors.dense(1e300, 0)), "not a finite float", "");
  }

  private static void assertMessage(Row bad, String where, String fix) {
    List<Row> rows = List.of(RowFactory.create(0.0, Vectors.dense(0, 1)), bad);
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> PartitionRows.read(rows.iterator(), 0, 1, 2, 3))
            .getMessage();
    assertTrue(message.contains(where) && message.contains(fix), message);
  }
}
