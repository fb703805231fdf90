package org.largecat.cli.spark;

import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.largecat.spark.ExecutorKernels;

/**
 * Which kernels' backends the executors of a Spark run chose: one task per partition reports its
 * executor's id, host and {@link ExecutorKernels} choice, which each executor also logs.
 */
public final class ExecutorSurvey {
  private ExecutorSurvey() {}

  /**
   * One line per executor that ran a task, {@code executor ID on HOST: CHOICE}, in the order of the
   * executors' ids; {@code run.partitions()} tasks (default: Spark's default parallelism).
   */
  public static List<String> run(SparkRun run) {
    SparkSession spark = SparkSessions.start(run);
    try {
      JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
      int tasks = run.partitions() != null ? run.partitions() : context.defaultParallelism();
      return context
          .parallelize(IntStream.range(0, tasks).boxed().toList(), tasks)
          .mapPartitions(
              task -> {
                SparkEnv env = SparkEnv.get();
                String choice = ExecutorKernels.get().describeChoice();
                return List.of(
                        "executor "
                            + env.executorId()
                            + " on "
                            + env.blockManager().blockManagerId().host()
                            + ": "
                            + choice)
                    .iterator();
              })
          .distinct()
          .collect()
          .stream()
          .sorted()
          .toList();
    } finally {
      spark.stop();
    }
  }
}
