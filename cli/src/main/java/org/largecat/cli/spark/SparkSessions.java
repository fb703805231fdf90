package org.largecat.cli.spark;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * Starts the Spark session of a {@code largecat spark} command: no web UI unless asked for, local
 * mode on the loopback address only, Spark's own log in a file unless --debug ({@link SparkLog})
 * but largecat's INFO lines (each JVM's backend choice) shown, and executors that load the kernels'
 * backends as one machine does.
 */
public final class SparkSessions {
  /**
   * The executors' JVM options: the Vector API's module and native access for the native and BLAS
   * backends, as bin/jvm-options.sh gives one machine.
   */
  public static final String EXECUTOR_JAVA_OPTIONS =
      "--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED";

  private SparkSessions() {}

  /**
   * A session for {@code run}. The master is the run's, else spark-submit's, else {@code local[*]};
   * the run's settings override the defaults here, except that executor JVM options are added to
   * {@link #EXECUTOR_JAVA_OPTIONS}. On a cluster, the jar this class came from is shipped to the
   * executors unless spark-submit already ships one.
   */
  public static SparkSession start(SparkRun run) {
    SparkLog.configure(run.debug());
    SparkConf conf = new SparkConf().setAppName(run.app()).set("spark.ui.enabled", "false");
    if (run.master() != null) {
      conf.setMaster(run.master());
    } else if (!conf.contains("spark.master")) {
      conf.setMaster("local[*]");
    }
    if (conf.get("spark.master").startsWith("local")) {
      // Local mode serves no one else: listen on the loopback address only.
      conf.set("spark.driver.bindAddress", "127.0.0.1").set("spark.driver.host", "127.0.0.1");
    }
    String executorOptions = "spark.executor.extraJavaOptions";
    String extra = run.conf().getOrDefault(executorOptions, conf.get(executorOptions, ""));
    run.conf().forEach(conf::set);
    conf.set(executorOptions, (EXECUTOR_JAVA_OPTIONS + " " + extra).strip());
    Path jar = ownJar();
    if (!conf.get("spark.master").startsWith("local")
        && !conf.contains("spark.jars")
        && jar != null) {
      conf.set("spark.jars", jar.toUri().toString());
    }
    try {
      return SparkSession.builder().config(conf).getOrCreate();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) { // a SparkException, which Scala code throws unchecked
      throw new IllegalArgumentException(
          "cannot start Spark with master " + conf.get("spark.master") + ": " + e.getMessage(), e);
    }
  }

  /** The jar this class was loaded from, or null when it comes from a directory (tests). */
  private static Path ownJar() {
    try {
      Path location =
          Path.of(SparkSessions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return location.toString().endsWith(".jar") ? location : null;
    } catch (URISyntaxException e) {
      return null;
    }
  }
}
