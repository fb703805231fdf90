package org.largecat.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.largecat.kernel.Kernels;

class LocalSparkTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = Frames.localSession();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @Test
  void tasksUseTheKernelsThisJvmChose() {
    JavaRDD<Integer> numbers =
        JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(List.of(1, 2, 3, 4), 2);
    List<String> seen =
        numbers
            .mapPartitions(it -> List.of(ExecutorKernels.get().describeChoice()).iterator())
            .collect();
    assertEquals(List.of(Kernels.get().describeChoice(), Kernels.get().describeChoice()), seen);
  }
}
