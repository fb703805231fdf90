package org.largecat.cli.spark;

import java.util.Map;

/**
 * Where and how a {@code largecat spark} command runs, in plain Java types, so that the command
 * classes that make it never load a Spark class.
 *
 * @param master Spark's master URL, or null for spark-submit's (else {@code local[*]})
 * @param conf Spark settings given on the command line
 * @param partitions the partitions of the data, or null for Spark's default parallelism
 * @param app the application's name
 * @param debug whether Spark's log goes to standard error, stack traces included, rather than to a
 *     file
 */
public record SparkRun(
    String master, Map<String, String> conf, Integer partitions, String app, boolean debug) {
  public SparkRun {
    conf = Map.copyOf(conf);
  }

  /** The master and partitions, for a report. */
  public String describe() {
    return (master == null ? "(spark-submit's master or local[*])" : master)
        + (partitions == null ? "" : ", " + partitions + " partitions");
  }
}
