package org.largecat.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.largecat.data.Dataset;
import org.largecat.data.SyntheticData;
import org.largecat.kernel.Kernels;
import org.largecat.train.Method;
import org.largecat.train.TrainingRun;
import org.largecat.train.fullbatch.AutomaticMethod;

class ChosenStochasticFitTest {
  private static final Dataset DATA = SyntheticData.linearSoftmax(6_000, 8, 40, 0.8, 7).data();

  private static Fitter fitter(List<String> notes) {
    return Fitter.softmax()
        .rank(4)
        .threads(1)
        .listener(
            new FitListener() {
              @Override
              public void note(String message) {
                notes.add(message);
              }
            });
  }

  /**
   * A method that runs past twice its estimate is stopped there and the fit chooses again: A&R goes
   * on from its model, on the same held-out rows, to the end of the budget or convergence.
   */
  @Test
  void pastTwiceItsEstimateTheFitChoosesArSoftmaxFromTheModelSoFar() {
    List<String> notes = new ArrayList<>();
    Fitter settings = fitter(notes).maxSeconds(120);
    // An estimate no epoch can keep: the first epoch ends past twice it.
    AutomaticMethod chosen = new AutomaticMethod(Method.EXACT_SOFTMAX_SGD, "test", 1e-6);
    Fit fit = new ChosenStochasticFit(settings, chosen, Kernels.get()).fit(new InMemoryRows(DATA));
    assertEquals(Method.AR_SOFTMAX, fit.method());
    assertTrue(
        notes.stream()
            .anyMatch(
                n ->
                    n.startsWith("exact-softmax-sgd ran")
                        && n.contains("choosing again, ar-softmax from its model")),
        notes.toString());
    assertEquals(Watched.HELD_OUT_ROWS, fit.watched());
    // The first run's one epoch and the second's are both in the history.
    assertEquals(fit.epochs(), fit.history().size(), 1e-9);
    assertTrue(fit.history().size() >= 2, fit.history().toString());
    assertTrue(fit.seconds() < 120, "took " + fit.seconds() + " s");
    assertTrue(fit.stoppedBecause() != TrainingRun.Stop.MAX_SECONDS, fit.stoppedBecause().name());
  }

  /** A method that keeps within twice its estimate runs as if none was made. */
  @Test
  void withinTwiceItsEstimateTheChosenMethodRunsAlone() {
    List<String> notes = new ArrayList<>();
    AutomaticMethod chosen = new AutomaticMethod(Method.EXACT_SOFTMAX_SGD, "test", 1e6);
    Fit fit =
        new ChosenStochasticFit(fitter(notes).maxEpochs(5), chosen, Kernels.get())
            .fit(new InMemoryRows(DATA));
    Fit alone = fitter(new ArrayList<>()).method(Method.EXACT_SOFTMAX_SGD).maxEpochs(5).fit(DATA);
    assertEquals(Method.EXACT_SOFTMAX_SGD, fit.method());
    assertEquals(alone.watchedLogLikelihood(), fit.watchedLogLikelihood());
    assertTrue(notes.stream().noneMatch(n -> n.contains("choosing again")), notes.toString());
  }
}
