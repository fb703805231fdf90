package org.largecat.fit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.largecat.kernel.Kernels;
import org.largecat.train.Method;
import org.largecat.train.TrainingRun;
import org.largecat.train.fullbatch.AutomaticMethod;

/**
 * A stochastic method {@code auto} chose on an estimate of its time ({@code exact-softmax-sgd} on a
 * factorized model), run for at most {@value #OVERRUN} times that estimate. When that cuts it short
 * of converging, the fit says so and chooses again: {@code ar-softmax}, whose epoch grows with |S|
 * rather than K, goes on from the model so far for the rest of the budget, under the prior the
 * first run chose.
 */
final class ChosenStochasticFit {
  /** How many times its estimate the chosen method runs before the fit chooses again. */
  static final double OVERRUN = 2;

  /** The least time the second method is given, when the first ran to the end of the budget. */
  static final double MIN_SECONDS = 1;

  private final Fitter settings;
  private final AutomaticMethod chosen;
  private final Kernels kernels;

  ChosenStochasticFit(Fitter settings, AutomaticMethod chosen, Kernels kernels) {
    this.settings = settings;
    this.chosen = chosen;
    this.kernels = kernels;
  }

  Fit fit(TrainingRows rows) {
    double budget = settings.budget();
    double cap = Math.min(budget, OVERRUN * chosen.estimatedSeconds());
    Fit first =
        new StochasticFit(settings.copy().maxSeconds(cap), chosen.method(), kernels).fit(rows);
    if (first.stoppedBecause() != TrainingRun.Stop.MAX_SECONDS || cap >= budget) {
      return first;
    }
    double left = budget - first.seconds();
    settings.listener.note(
        String.format(
            Locale.ROOT,
            "%s ran %.0f s, past %.0f times its estimate of %.0f s, without converging: choosing"
                + " again, %s from its model for the %.0f s left of the budget",
            chosen.method().label(),
            first.seconds(),
            OVERRUN,
            chosen.estimatedSeconds(),
            Method.AR_SOFTMAX.label(),
            left));
    Fitter rest =
        settings
            .copy()
            .method(Method.AR_SOFTMAX)
            .init(first.model())
            .validationFraction(settings.heldOutFraction(rows.rows()))
            .maxSeconds(Math.max(left, MIN_SECONDS));
    boolean priorChosen = first.prior().variance() > 0;
    if (priorChosen) {
      rest.priorVariance(first.prior().variance());
    }
    Fit second = new StochasticFit(rest, Method.AR_SOFTMAX, kernels).fit(rows);
    List<Fit.Epoch> history = new ArrayList<>(first.history());
    history.addAll(second.history());
    return new Fit(
        second.model(),
        Method.AR_SOFTMAX,
        second.batch(),
        second.sampled(),
        second.threads(),
        first.iterations() + second.iterations(),
        first.epochs() + second.epochs(),
        second.stoppedBecause(),
        first.seconds() + second.seconds(),
        second.secondsPerEpoch(),
        second.bound(),
        second.watched(),
        second.watchedLogLikelihood(),
        second.watchedRows(),
        history,
        priorChosen ? first.prior() : second.prior());
  }
}
