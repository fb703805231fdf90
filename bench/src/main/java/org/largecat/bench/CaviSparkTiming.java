package org.largecat.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CaviRun;
import org.largecat.cb.CbSimulation;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.cb.Link;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.spark.cb.DistributedCavi;

/**
 * The data-parallel IB-CAVI on Spark's local[2] (two partitions, or those given) against the
 * single-machine {@link IbCavi} on two threads, on the same App. G.1.1 data (CB-probit, full
 * covariance, K = 1,000, M = 21, N = 16,000) in the same JVM, in interleaved rounds: per round and
 * run, the start (design, cache and fixed statistics), the first iteration and the median of the
 * later ones, in wall time and in the process's CPU time (which also counts Spark's scheduling,
 * task serialization and JIT compilation, and moves less than wall time when other processes share
 * the cores). A hundred iterations by default (a CAVI run's default cap is 200): in a fresh JVM the
 * JIT goes on compiling Spark's job path for the first few dozen jobs. Not a JMH benchmark: the
 * first iteration is one of the figures asked for, and a Spark session per fork would dominate. Run
 * by bench/cavi-spark-vs-single.sh.
 */
public final class CaviSparkTiming {
  private CaviSparkTiming() {}

  /**
   * usage: CaviSparkTiming [rounds (3)] [iterations per run (100)] [partitions, e.g. 2,4 (2)] [N
   * (16000)]
   */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int[] partitions =
        Arrays.stream((args.length > 2 ? args[2] : "2").split(","))
            .mapToInt(Integer::parseInt)
            .toArray();
    int n = args.length > 3 ? Integer.parseInt(args[3]) : 16_000;
    int k = 1_000;
    int d = 20;
    Dataset data = CbSimulation.generate(n, k, d, 2.0, Math.sqrt(0.001), 0.5, 1).data();
    GaussianPrior prior = GaussianPrior.isotropic(d + 1, 1);
    CaviOptions options = new CaviOptions(Link.PROBIT, false, iterations, 0, 2);
    Kernels kernels = Kernels.get();
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("largecat-cavi-timing")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    StructType schema =
        new StructType()
            .add("label", DataTypes.DoubleType, false)
            .add("features", SQLDataTypes.VectorType(), false);
    List<Row> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      double[] x = new double[d];
      for (int j = 0; j < d; j++) {
        x[j] = data.features().get(i, j);
      }
      rows.add(RowFactory.create((double) data.labels()[i], Vectors.dense(x)));
    }
    List<org.apache.spark.sql.Dataset<Row>> frames = new ArrayList<>();
    for (int p : partitions) {
      org.apache.spark.sql.Dataset<Row> frame =
          spark.createDataFrame(rows, schema).repartition(p).cache();
      frame.count();
      frames.add(frame);
    }
    System.out.printf(
        Locale.ROOT,
        "IB-CAVI probit, full q(B), N = %d, K = %d, M = %d; %s; %d rounds of %d iterations%n",
        n,
        k,
        d + 1,
        kernels.describeChoice(),
        rounds,
        iterations);
    System.out.printf(
        Locale.ROOT,
        "per iteration on Spark: broadcast %d bytes of q(B) (means M x K and the M x M factor),"
            + " %d bytes of statistics per partition (X^T E[z], M x K)%n",
        8L * (d + 1) * k + 8L * (d + 1) * (d + 1),
        8L * (d + 1) * k);
    double[][] steady = new double[1 + partitions.length][rounds];
    double[][] steadyCpu = new double[1 + partitions.length][rounds];
    var process =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (int r = 0; r < rounds; r++) {
      for (int which = 0; which <= partitions.length; which++) {
        long t0 = System.nanoTime();
        double[] seconds = new double[iterations];
        double[] cpu = new double[iterations];
        try (CaviRun run =
            which == 0
                ? IbCavi.start(data, prior, options, kernels)
                : DistributedCavi.start(
                    frames.get(which - 1), "label", "features", d, k, prior, options)) {
          double start = (System.nanoTime() - t0) * 1e-9;
          for (int t = 0; t < iterations; t++) {
            long s = System.nanoTime();
            long c = process.getProcessCpuTime();
            run.iterate();
            seconds[t] = (System.nanoTime() - s) * 1e-9;
            cpu[t] = (process.getProcessCpuTime() - c) * 1e-9;
          }
          steady[which][r] = median(Arrays.copyOfRange(seconds, 1, iterations));
          steadyCpu[which][r] = median(Arrays.copyOfRange(cpu, 1, iterations));
          System.out.printf(
              Locale.ROOT,
              "round %d %-28s start %.3f s, first iteration %.3f s, median of iterations 2..%d"
                  + " %.3f s (process CPU %.3f s) %s%n",
              r + 1,
              which == 0
                  ? "single machine (2 threads)"
                  : "Spark local[2], " + partitions[which - 1] + " partitions",
              start,
              seconds[0],
              iterations,
              steady[which][r],
              steadyCpu[which][r],
              Arrays.toString(
                  Arrays.stream(seconds).map(x -> Math.round(x * 1000) / 1000.0).toArray()));
        }
      }
    }
    double single = median(steady[0]);
    for (int which = 1; which <= partitions.length; which++) {
      double distributed = median(steady[which]);
      System.out.printf(
          Locale.ROOT,
          "median over rounds of the steady iteration: single %.3f s, Spark with %d partitions"
              + " %.3f s, ratio %.2f; process CPU single %.3f s, Spark %.3f s, ratio %.2f%n",
          single,
          partitions[which - 1],
          distributed,
          distributed / single,
          median(steadyCpu[0]),
          median(steadyCpu[which]),
          median(steadyCpu[which]) / median(steadyCpu[0]));
    }
    spark.stop();
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int h = v.length / 2;
    return v.length % 2 == 1 ? v[h] : 0.5 * (v[h - 1] + v[h]);
  }
}
