package org.largecat.train.fullbatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.largecat.data.Dataset;
import org.largecat.data.DatasetReader;
import org.largecat.data.ReadOptions;
import org.largecat.data.SparseFeatures;
import org.largecat.data.TextFormat;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.FullBatchSpec;
import org.largecat.train.LbfgsSettings;
import org.largecat.train.TrainingRun;

/**
 * The solver against an independent one: make_reference_fit.py (beside the resources) fits the same
 * N = 300, D = 5, K = 4 problem with V = 10 by Newton's method in float64 and commits the optimum;
 * the solver must reach its objective within 1e-8 relative, and its parameters, from dense and from
 * sparse (CSR) features alike.
 */
class ReferenceFitTest {
  private static final Kernels KERNELS = Kernels.get();

  /** The committed optimum: V, the objective, W (K × D row-major) and b. */
  private record Reference(
      double priorVariance, double objective, double[] weights, double[] biases) {}

  /** The default stopping test: the objective to 1e-8 relative; the parameters follow loosely. */
  @ParameterizedTest
  @ValueSource(strings = {"dense", "sparse"})
  void reachesTheNewtonOptimum(String storage) {
    Reference reference = reference();
    LinearModel model = fit(storage, reference, FullBatchSpec.defaultLbfgs(5, 4), 1e-8);
    assertParametersClose(reference, model, 1e-4);
  }

  /**
   * Run to ‖∇‖∞ ≤ 1e-8 (no relative-change test), the parameters agree up to their rounding to
   * float.
   */
  @ParameterizedTest
  @ValueSource(strings = {"dense", "sparse"})
  void reachesTheNewtonParametersWhenRunToATinyGradient(String storage) {
    Reference reference = reference();
    LbfgsSettings tight = new LbfgsSettings(10, 1e-8, 0, 10_000, 20_000, Double.POSITIVE_INFINITY);
    LinearModel model = fit(storage, reference, tight, 1e-13);
    assertParametersClose(reference, model, 1e-6);
  }

  private static LinearModel fit(
      String storage, Reference reference, LbfgsSettings settings, double relativeTolerance) {
    Dataset data = data(storage);
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, data.classes(), data.columns());
    FullBatchRun run =
        FullBatchSoftmax.train(
            data,
            model,
            new FullBatchSpec(reference.priorVariance(), 2, settings),
            KERNELS,
            (iteration, passes, objective, gradientNorm, change, seconds) -> {});
    assertEquals(TrainingRun.Stop.CONVERGED, run.stoppedBecause(), run.toString());
    assertEquals(
        reference.objective(),
        run.objective(),
        relativeTolerance * Math.abs(reference.objective()),
        run.toString());
    return model;
  }

  private static void assertParametersClose(Reference reference, LinearModel model, double within) {
    for (int i = 0; i < reference.weights().length; i++) {
      assertEquals(reference.weights()[i], model.weights()[i], within, "weight " + i);
    }
    for (int k = 0; k < reference.biases().length; k++) {
      assertEquals(reference.biases()[k], model.biases()[k], within, "bias " + k);
    }
  }

  /** The reference data, dense or as read (CSR). */
  static Dataset data(String storage) {
    try {
      Dataset data =
          DatasetReader.read(
              resource("reference-data.txt"), ReadOptions.of(TextFormat.EXTREME_CLASSIFICATION));
      return storage.equals("dense")
          ? new Dataset(((SparseFeatures) data.features()).toDense(), data.labels(), data.classes())
          : data;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path resource(String name) {
    try {
      return Path.of(ReferenceFitTest.class.getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Reference reference() {
    double priorVariance = Double.NaN;
    double objective = Double.NaN;
    List<double[]> weightRows = new ArrayList<>();
    double[] biases = null;
    try {
      for (String line : Files.readAllLines(resource("reference-fit.txt"))) {
        if (line.startsWith("#")) {
          continue;
        }
        String[] fields = line.split(" ");
        double[] numbers = Arrays.stream(fields).skip(1).mapToDouble(Double::parseDouble).toArray();
        switch (fields[0]) {
          case "prior_variance" -> priorVariance = numbers[0];
          case "objective" -> objective = numbers[0];
          case "weights" -> weightRows.add(numbers);
          case "biases" -> biases = numbers;
          default -> throw new IllegalStateException("reference-fit.txt: unknown line " + line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    double[] weights = weightRows.stream().flatMapToDouble(Arrays::stream).toArray();
    return new Reference(priorVariance, objective, weights, biases);
  }
}
