package org.largecat.fit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.data.SyntheticData;
import org.largecat.data.SyntheticSet;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.Sampling;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingRun;

/**
 * The one training flow: its defaults against a known generating model, its checks of settings, and
 * that it runs the trainer exactly as a caller of the trainer would.
 */
class FitterTest {
  private static final int COLUMNS = 6;
  private static final int CLASSES = 12;

  private static SyntheticSet set(int rows, long seed) {
    return SyntheticData.linearSoftmax(rows, COLUMNS, CLASSES, 0.8, seed);
  }

  private static double logLikelihood(LinearModel model, Dataset data) {
    return Evaluation.evaluate(model, data, Kernels.get(), 1, 2).meanLogLikelihood();
  }

  /** With nothing set, the fit is within 1% of the generating model on held-out rows. */
  @Test
  void theDefaultsComeWithinOnePercentOfTheGeneratingModel() {
    SyntheticSet all = set(24_000, 5);
    Dataset[] split = Preprocessing.holdOut(all.data(), 1 / 6.0, 3);
    LinearModel truth =
        new LinearModel(Link.SOFTMAX, CLASSES, COLUMNS, all.weights(), all.biases());
    double best = logLikelihood(truth, split[1]);
    List<String> notes = new ArrayList<>();
    Fit fit =
        Fitter.softmax()
            .listener(
                new FitListener() {
                  @Override
                  public void note(String message) {
                    notes.add(message);
                  }
                })
            .fit(split[0]);
    assertEquals(Method.EXACT_SOFTMAX, fit.method(), notes.toString());
    assertTrue(notes.get(0).startsWith("chose exact-softmax: "), notes.toString());
    assertEquals(Boolean.TRUE, fit.converged());
    assertEquals(fit.iterations(), fit.history().size());
    double fitted = logLikelihood((LinearModel) fit.model(), split[1]);
    assertTrue(fitted > best * 1.01, fitted + " against the truth's " + best);
  }

  /** A sampled-bound run of fixed length is the trainer's run from the same start, bit for bit. */
  @Test
  void aFixedRunIsTheTrainersRunBitForBit() {
    Dataset data = set(3_000, 7).data();
    Fit fit = Fitter.softmax().method(Method.AR_SOFTMAX).epochs(3).threads(2).seed(9).fit(data);
    SampledSpec options =
        SampledSpec.builder(Method.AR_SOFTMAX)
            .batch(500)
            .sampled(11)
            .seed(9)
            .threads(2)
            .stepSize(StepSizeSchedule.PAPER)
            .build();
    LinearModel model = Trainers.initialModel(data, options);
    try (Trainer trainer = Trainers.create(data, model, options, Kernels.get())) {
      TrainingRun.run(trainer, 3 * trainer.iterationsPerEpoch(), 1e9, (t, n, b, s) -> {});
    }
    LinearModel fitted = (LinearModel) fit.model();
    assertArrayEquals(model.weights(), fitted.weights());
    assertArrayEquals(model.biases(), fitted.biases());
    assertEquals(500, fit.batch());
    assertEquals(11, fit.sampled(), "|S| = 100 cut to the K - 1 classes besides the label");
    assertEquals(null, fit.converged());
    assertEquals(null, fit.watched());
  }

  /**
   * Under the rule, A&R watches a held-out fifth of 3,000 rows by default (the 1,000-row floor is
   * more than a fifth), returns the epoch best on it, and the history has an entry per epoch; with
   * nothing held out it watches training rows.
   */
  @Test
  void theRuleWatchesRowsAndReportsEachEpoch() {
    Dataset data = set(3_000, 8).data();
    List<Fit.Epoch> told = new ArrayList<>();
    Fit fit =
        Fitter.softmax()
            .method(Method.AR_SOFTMAX)
            .maxEpochs(4)
            .listener(
                new FitListener() {
                  @Override
                  public void epoch(Fit.Epoch epoch) {
                    told.add(epoch);
                  }
                })
            .fit(data);
    assertEquals(Watched.HELD_OUT_ROWS, fit.watched());
    assertEquals(600, fit.watchedRows(), "a fifth of 3,000 rows, all watched");
    assertEquals(told, fit.history());
    assertEquals(Math.round(fit.epochs()), told.size());
    assertEquals(
        told.stream().mapToDouble(Fit.Epoch::value).max().orElseThrow(),
        fit.watchedLogLikelihood(),
        "the model of the best epoch on the held-out rows");
    Dataset heldOut = Preprocessing.holdOut(data, 600 / 3_000.0, 1)[1];
    assertEquals(
        fit.watchedLogLikelihood(),
        Evaluation.evaluate(fit.model(), heldOut, Kernels.get(), 1, 2).meanLogLikelihood(),
        1e-12,
        "the model returned scores the held-out rows as its best epoch did");
    Fit training =
        Fitter.softmax().method(Method.AR_SOFTMAX).maxEpochs(2).validationFraction(0).fit(data);
    assertEquals(Watched.TRAINING_ROWS, training.watched());
    assertEquals(3_000, training.watchedRows(), "fewer rows than the fewest watched: all");
    assertEquals(training.history().getLast().value(), training.watchedLogLikelihood());
    Fit quarter =
        Fitter.softmax().method(Method.OVE).maxEpochs(2).validationFraction(0.25).fit(data);
    assertEquals(Watched.HELD_OUT_ROWS, quarter.watched());
    assertEquals(750, quarter.watchedRows());
  }

  /**
   * 500 rows of 40 features: maximum likelihood overfits, the held-out score peaks and falls, and
   * the model returned is the peak's.
   */
  @Test
  void earlyStoppingReturnsTheEpochBestOnTheHeldOutRows() {
    Dataset data = SyntheticData.linearSoftmax(500, 40, 8, 0.5, 4).data();
    Fit fit = Fitter.softmax().method(Method.EXACT_SOFTMAX_SGD).validationFraction(0.2).fit(data);
    double best = fit.history().stream().mapToDouble(Fit.Epoch::value).max().orElseThrow();
    assertTrue(
        fit.history().getLast().value() < best - 1e-3,
        "the held-out score fell after its peak: " + fit.history());
    assertEquals(best, fit.watchedLogLikelihood());
    Dataset heldOut = Preprocessing.holdOut(data, 0.2, 1)[1];
    assertEquals(
        best,
        Evaluation.evaluate(fit.model(), heldOut, Kernels.get(), 1, 2).meanLogLikelihood(),
        1e-12);
  }

  @Test
  void cancellingEndsTheFitWithoutAModel() {
    Dataset data = set(2_000, 9).data();
    AtomicInteger asked = new AtomicInteger();
    for (Method method : new Method[] {Method.AR_SOFTMAX, Method.EXACT_SOFTMAX}) {
      assertThrows(
          CancellationException.class,
          () ->
              Fitter.softmax()
                  .method(method)
                  .cancelWhen(() -> asked.incrementAndGet() > 3)
                  .fit(data));
    }
  }

  @Test
  void settingsOutOfRangeAreRefusedAtOnce() {
    Fitter fitter = Fitter.softmax();
    assertMessage("batch = 0: give 1 or more", () -> fitter.batch(0));
    assertMessage(
        "priorVariance = NaN: give a finite value >= 0", () -> fitter.priorVariance(Double.NaN));
    assertMessage(
        "validationFraction = 1.0: give a value in [0, 1)", () -> fitter.validationFraction(1));
    assertMessage("learningRate = -1.0: give a finite value > 0", () -> fitter.learningRate(-1));
    assertMessage("maxSeconds = 0.0: give a value > 0", () -> fitter.maxSeconds(0));
  }

  @Test
  void settingsThatContradictAreRefusedByFit() {
    Dataset data = set(500, 10).data();
    assertMessage(
        "tolerance set the stopping rule, which runs only when neither epochs nor iterations is set",
        () -> Fitter.softmax().method(Method.OVE).epochs(1).tolerance(1e-3).fit(data));
    assertMessage(
        "ar-probit fits a PROBIT model, not the SOFTMAX asked for",
        () -> Fitter.softmax().method(Method.AR_PROBIT).link(Link.SOFTMAX).fit(data));
    assertMessage(
        "ridge applies to the double-sum methods only",
        () -> Fitter.softmax().method(Method.OVE).ridge(0.1).fit(data));
    assertMessage(
        "batch and sampled do not apply to umax, which takes one datapoint and one class per iteration",
        () -> Fitter.softmax().method(Method.UMAX).batch(10).fit(data));
    assertMessage(
        "batch does not apply to exact-softmax",
        () -> Fitter.softmax().method(Method.EXACT_SOFTMAX).batch(10).fit(data));
    assertMessage(
        "the initial model, SOFTMAX with K = 3, D = 6, cannot start ove on data with K = 12, D = 6",
        () ->
            Fitter.softmax()
                .method(Method.OVE)
                .init(LinearModel.zeros(Link.SOFTMAX, 3, COLUMNS))
                .fit(data));
  }

  /** Auto chooses A&R of the link asked for, and A&R when a stochastic-only setting is given. */
  @Test
  void autoChoosesByLinkAndSettings() {
    Dataset data = set(800, 11).data();
    assertEquals(Method.AR_PROBIT, Fitter.of(Link.PROBIT).epochs(1).fit(data).method());
    assertEquals(Method.AR_SOFTMAX, Fitter.softmax().epochs(1).fit(data).method());
  }

  /**
   * A factorized model under the rule shares each mini-batch's classes unless told otherwise; a run
   * of fixed length draws them per example, as the papers do.
   */
  @Test
  void aFactorizedFitUnderTheRuleSharesItsSampleByDefault() {
    Dataset data = set(3_000, 5).data();
    Fitter underRule = Fitter.softmax().method(Method.AR_SOFTMAX).rank(3).threads(1).maxEpochs(3);
    String byDefault = parameters(underRule.fit(data));
    assertEquals(byDefault, parameters(underRule.copy().sampling(Sampling.SHARED).fit(data)));
    assertNotEquals(
        byDefault,
        parameters(underRule.copy().sampling(Sampling.PER_EXAMPLE).fit(data)),
        "shared and per-example sampling gave the same model");
    Fitter fixed = Fitter.softmax().method(Method.AR_SOFTMAX).rank(3).threads(1).epochs(2);
    assertEquals(
        parameters(fixed.fit(data)),
        parameters(fixed.copy().sampling(Sampling.PER_EXAMPLE).fit(data)));
  }

  private static String parameters(Fit fit) {
    FactorizedModel model = (FactorizedModel) fit.model();
    return Arrays.toString(model.outputs())
        + Arrays.toString(model.inputs())
        + Arrays.toString(model.biases());
  }

  private static void assertMessage(String start, Runnable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
    assertTrue(e.getMessage().startsWith(start), e.getMessage());
  }
}
