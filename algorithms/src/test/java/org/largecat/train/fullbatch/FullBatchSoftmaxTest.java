package org.largecat.train.fullbatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.largecat.data.Dataset;
import org.largecat.data.SparseFeatures;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.FullBatchSpec;
import org.largecat.train.LbfgsSettings;
import org.largecat.train.TrainingDivergedException;
import org.largecat.train.TrainingRun;

/** The solver on a LinearModel: reproducible on any thread count, its caps, its refusals. */
class FullBatchSoftmaxTest {
  private static final Kernels KERNELS = Kernels.get();
  private static final FullBatchSoftmax.Progress QUIET = (i, p, f, g, c, s) -> {};

  private static FullBatchRun fit(Dataset data, LinearModel model, FullBatchSpec options) {
    return FullBatchSoftmax.train(data, model, options, KERNELS, QUIET);
  }

  @ParameterizedTest
  @ValueSource(strings = {"dense", "sparse"})
  void oneAndTwoThreadsFitTheSameModelBitForBit(String storage) {
    Dataset data =
        storage.equals("dense")
            ? TestProblems.dense(4000, 8, 10, 21)
            : TestProblems.sparse(4000, 8, 10, 21);
    LinearModel one = LinearModel.zeros(Link.SOFTMAX, 10, 8);
    LinearModel two = LinearModel.zeros(Link.SOFTMAX, 10, 8);
    FullBatchSpec options = FullBatchSpec.builder(8, 10).priorVariance(4).build();
    FullBatchRun first = fit(data, one, options.toBuilder().threads(1).build());
    FullBatchRun second = fit(data, two, options.toBuilder().threads(2).build());
    assertTrue(first.converged(), first.toString());
    assertEquals(first.iterations(), second.iterations());
    assertEquals(first.passes(), second.passes());
    assertEquals(
        Double.doubleToRawLongBits(first.objective()),
        Double.doubleToRawLongBits(second.objective()));
    assertArrayEquals(one.weights(), two.weights());
    assertArrayEquals(one.biases(), two.biases());
  }

  /** Maximum likelihood (V = 0) on separable-free data converges too, and from a given start. */
  @Test
  void maximumLikelihoodFromASavedModelReachesTheSameOptimum() {
    Dataset data = TestProblems.dense(3000, 5, 6, 22);
    FullBatchSpec options = FullBatchSpec.builder(5, 6).threads(2).build();
    LinearModel fromZero = LinearModel.zeros(Link.SOFTMAX, 6, 5);
    FullBatchRun zero = fit(data, fromZero, options);
    LinearModel fromElsewhere = LinearModel.zeros(Link.SOFTMAX, 6, 5);
    Arrays.fill(fromElsewhere.weights(), 0.3f);
    FullBatchRun elsewhere = fit(data, fromElsewhere, options);
    assertTrue(zero.converged() && elsewhere.converged(), zero + " " + elsewhere);
    assertEquals(zero.objective(), elsewhere.objective(), 1e-9 * Math.abs(zero.objective()));
  }

  @Test
  void theMostPassesEndTheRunAsMaxEpochs() {
    Dataset data = TestProblems.dense(2000, 5, 6, 23);
    FullBatchRun run =
        fit(
            data,
            LinearModel.zeros(Link.SOFTMAX, 6, 5),
            FullBatchSpec.builder(5, 6)
                .lbfgs(LbfgsSettings.DEFAULT.withMaxEvaluations(4))
                .threads(2)
                .build());
    assertEquals(TrainingRun.Stop.MAX_EPOCHS, run.stoppedBecause(), run.toString());
    assertTrue(run.passes() <= 5, "4 evaluations and the float model's: " + run);
  }

  /** A model whose weights are NaN fails at the start, naming it, and is left as it was. */
  @Test
  void aNonFiniteStartIsRefusedNamingTheStartingPoint() {
    Dataset data = TestProblems.dense(100, 3, 4, 24);
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, 4, 3);
    model.weights()[5] = Float.NaN;
    TrainingDivergedException e =
        assertThrows(
            TrainingDivergedException.class,
            () -> fit(data, model, FullBatchSpec.builder(3, 4).build()));
    assertTrue(
        e.getMessage().startsWith("the objective became NaN at the starting point"),
        e.getMessage());
    assertTrue(Float.isNaN(model.weights()[5]) && model.weights()[0] == 0);
  }

  /**
   * (D + 1) K = 10⁸ parameters: 26 vectors of them (m = 10) are 21 GB, beyond any test heap; the
   * refusal says what is needed and what to use instead, before allocating.
   */
  @Test
  void aProblemWhoseStateDoesNotFitTheHeapIsRefused() {
    int columns = 9_999;
    int classes = 10_000;
    Dataset data =
        new Dataset(
            new SparseFeatures(
                2, columns, new int[] {0, 1, 2}, new int[] {0, 9_998}, new float[] {1, 1}),
            new int[] {0, 9_999},
            classes);
    long needed = FullBatchSoftmax.bytesNeeded(2, columns, classes, true, 2);
    assertTrue(needed >= 26L * 8 * 100_000_000, needed + " bytes");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                FullBatchSoftmax.requireMemory(
                    data, FullBatchSpec.builder(columns, classes).build()));
    assertTrue(
        e.getMessage()
            .startsWith(
                "exact-softmax's L-BFGS state (m = 10 pairs of (D + 1) × K = 10000 × 10000 doubles)"),
        e.getMessage());
    assertTrue(e.getMessage().contains("GB needed"), e.getMessage());
    assertTrue(
        e.getMessage().endsWith("or use --method ar-softmax, whose memory is the model's"),
        e.getMessage());
  }

  @Test
  void onlyASoftmaxModelOfTheDataShapeIsFitted() {
    Dataset data = TestProblems.dense(100, 3, 4, 25);
    IllegalArgumentException probit =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                fit(
                    data,
                    LinearModel.zeros(Link.PROBIT, 4, 3),
                    FullBatchSpec.builder(3, 4).build()));
    assertEquals("exact-softmax fits a SOFTMAX model, not PROBIT", probit.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            fit(data, LinearModel.zeros(Link.SOFTMAX, 5, 3), FullBatchSpec.builder(3, 4).build()));
  }
}
