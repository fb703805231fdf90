package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.fit.Classifier;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a program that scores with the library sees: {@link Classifier#predict(float[])} of one
 * dense example (latency, sampled, in µs) and {@link Classifier#predict(float[], int, int[])} of a
 * row-major block of {@link #BLOCK} examples (throughput, examples/s), on 1 and 2 threads sharing
 * one classifier, for a random linear or factorized (rank {@link #RANK}) softmax model with D =
 * {@link #COLUMNS} and K = {@code classes}.
 */
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-modules",
      "jdk.incubator.vector",
      "--enable-native-access=ALL-UNNAMED",
      "-XX:+UseTransparentHugePages"
    })
@State(Scope.Benchmark)
public class PredictBenchmark {
  static final int COLUMNS = 100;
  static final int RANK = 64;
  static final int BLOCK = 1024;

  /** Distinct single examples cycled through, a power of two. */
  static final int EXAMPLES = 1024;

  @Param({"auto"})
  public String backend;

  @Param({"linear", "factorized"})
  public String model;

  @Param({"1000", "100000"})
  public int classes;

  private Classifier classifier;
  private float[][] examples;
  private float[] block;

  /** One thread's place in the examples and its output of a block. */
  @State(Scope.Thread)
  public static class PerThread {
    int next;
    final int[] out = new int[BLOCK];
  }

  @Setup
  public void setUp() {
    Kernels kernels = ResolvedBackends.select(backend, null);
    SplittableRandom random = new SplittableRandom(11);
    classifier = Classifier.of(model(random), kernels);
    examples = new float[EXAMPLES][COLUMNS];
    for (float[] x : examples) {
      for (int j = 0; j < COLUMNS; j++) {
        x[j] = (float) random.nextGaussian();
      }
    }
    block = new float[BLOCK * COLUMNS];
    for (int i = 0; i < block.length; i++) {
      block[i] = (float) random.nextGaussian();
    }
  }

  private ScoreModel model(SplittableRandom random) {
    double[] biases = new double[classes];
    for (int k = 0; k < classes; k++) {
      biases[k] = random.nextGaussian() * 0.5;
    }
    return switch (model) {
      case "linear" ->
          new LinearModel(
              Link.SOFTMAX, classes, COLUMNS, gaussian(classes * COLUMNS, 0.25, random), biases);
      case "factorized" ->
          new FactorizedModel(
              Link.SOFTMAX,
              classes,
              COLUMNS,
              RANK,
              gaussian(COLUMNS * RANK, 0.1, random),
              gaussian(classes * RANK, 0.1, random),
              biases);
      default ->
          throw new IllegalArgumentException(
              "unknown model " + model + "; known: linear, factorized");
    };
  }

  private static float[] gaussian(int n, double scale, SplittableRandom random) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = (float) (random.nextGaussian() * scale);
    }
    return a;
  }

  private void predictOne(PerThread t, Blackhole bh) {
    bh.consume(classifier.predict(examples[t.next++ & (EXAMPLES - 1)]));
  }

  private void predictBlock(PerThread t, Blackhole bh) {
    classifier.predict(block, BLOCK, t.out);
    bh.consume(t.out);
  }

  /** One example's predict on one thread. */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  @Threads(1)
  public void single(PerThread t, Blackhole bh) {
    predictOne(t, bh);
  }

  /** One example's predict on each of 2 threads at once, one classifier. */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  @Threads(2)
  public void singleTwoThreads(PerThread t, Blackhole bh) {
    predictOne(t, bh);
  }

  /** Examples per second of the batch predict of a block, one thread. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(BLOCK)
  @Threads(1)
  public void batch(PerThread t, Blackhole bh) {
    predictBlock(t, bh);
  }

  /** Examples per second of 2 threads each predicting a block, one classifier (the sum). */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(BLOCK)
  @Threads(2)
  public void batchTwoThreads(PerThread t, Blackhole bh) {
    predictBlock(t, bh);
  }
}
