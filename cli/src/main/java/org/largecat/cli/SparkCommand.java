package org.largecat.cli;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.largecat.cli.spark.ExecutorSurvey;
import org.largecat.cli.spark.SparkRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code largecat spark}: the commands that run on Apache Spark, in local mode inside this JVM or
 * on a cluster. Spark is not in largecat.jar (the launcher adds its jars for this command only), so
 * these classes hold no Spark type: the Spark work is in {@code org.largecat.cli.spark}, reached
 * only through {@link SparkOptions#run}, which first makes sure Spark is on the class path.
 */
@Command(
    name = "spark",
    description = "Runs on Apache Spark: local mode in this JVM (--master local[*]) or a cluster.",
    subcommands = {SparkCommand.Kernels.class})
final class SparkCommand {
  private SparkCommand() {}

  /** The options every {@code spark} subcommand takes: where to run and Spark's settings. */
  static final class SparkOptions {
    @Option(
        names = "--master",
        paramLabel = "URL",
        description =
            "Spark's master: local[N] in this JVM, spark://HOST:PORT for a standalone cluster"
                + " (default: spark-submit's --master, else local[*]).")
    String master;

    @Option(
        names = "--partitions",
        paramLabel = "N",
        converter = OptionTypes.Count.class,
        description = "Partitions of the data (default: Spark's default parallelism).")
    Integer partitions;

    @Option(
        names = "--conf",
        paramLabel = "KEY=VALUE",
        description = "A Spark setting, e.g. spark.executor.memory=4g (repeatable).")
    Map<String, String> conf = new LinkedHashMap<>();

    /** The run these options describe, for {@code app} (the application's name). */
    SparkRun run(String app) {
      requireSpark();
      return new SparkRun(master, conf, partitions, app);
    }

    /**
     * Refuses to go on without Spark's classes, saying how to get them: a plain {@code java -jar
     * largecat.jar} has none.
     */
    private static void requireSpark() {
      try {
        Class.forName(
            "org.apache.spark.sql.SparkSession", false, SparkCommand.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalArgumentException(
            "Spark is not on the class path (largecat.jar leaves it out); run './largecat spark"
                + " ...', which adds cli/target/spark-jars/*, or submit largecat.jar to"
                + " spark-submit with --class org.largecat.cli.Largecat");
      }
    }
  }

  /** {@code largecat spark kernels}: which backends each executor's JVM chose. */
  @Command(
      name = "kernels",
      description =
          "Runs one task per partition and prints, per executor, the kernels' backend choice"
              + " (the line each executor also logs).")
  static final class Kernels implements Callable<Integer> {
    private final PrintStream out;

    @Mixin SparkOptions spark;

    Kernels(Largecat.Streams streams) {
      this.out = streams.out();
    }

    @Override
    public Integer call() {
      ExecutorSurvey.run(spark.run("largecat spark kernels")).forEach(out::println);
      return 0;
    }
  }
}
