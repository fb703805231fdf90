package org.largecat.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Exact evaluation of a linear softmax model (K = D = 1000, 4,096 rows, one thread) with x holding
 * {@code nonzeros} values a row, stored sparse or dense: dense rows go by one gemm per block of
 * rows, sparse ones by the same gemm once copied densely into the block or, when very sparse, by
 * one gather-dot a row; the pairs show where Predictor's choice between the two should lie.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-modules",
      "jdk.incubator.vector",
      "--enable-native-access=ALL-UNNAMED",
      "-XX:+UseTransparentHugePages"
    })
@State(Scope.Benchmark)
public class EvaluationBenchmark {
  @Param({"auto"})
  public String backend;

  @Param({"5", "15", "30", "100"})
  public int nonzeros;

  @Param({"sparse", "dense"})
  public String storage;

  private Kernels kernels;
  private LinearModel model;
  private Dataset data;

  @Setup
  public void setUp() {
    kernels = ResolvedBackends.select(backend, null);
    int classes = 1000;
    int columns = 1000;
    SplittableRandom random = new SplittableRandom(5);
    data = BenchData.dataset(4096, columns, nonzeros, classes, random);
    if (storage.equals("dense")) {
      data = new Dataset(((SparseFeatures) data.features()).toDense(), data.labels(), classes);
    } else if (!storage.equals("sparse")) {
      throw new IllegalArgumentException("unknown storage " + storage + "; known: sparse, dense");
    }
    float[] w = new float[classes * columns];
    for (int i = 0; i < w.length; i++) {
      w[i] = (float) random.nextGaussian();
    }
    model = new LinearModel(Link.SOFTMAX, classes, columns, w, new double[classes]);
  }

  @Benchmark
  public double evaluate() {
    return Evaluation.evaluate(model, data, kernels, 5, 1).meanLogLikelihood();
  }
}
