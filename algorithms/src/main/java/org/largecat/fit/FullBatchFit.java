package org.largecat.fit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;
import org.largecat.train.FullBatchSpec;
import org.largecat.train.LbfgsSettings;
import org.largecat.train.Method;
import org.largecat.train.TrainingRun;
import org.largecat.train.fullbatch.FullBatchRun;
import org.largecat.train.fullbatch.FullBatchSoftmax;
import org.largecat.train.fullbatch.LbfgsResult;

/**
 * A {@link Fitter}'s run of the full-batch solver: L-BFGS on the exact softmax log-likelihood (or
 * MAP) over all rows, until it converges, under the prior given or, when none is, the one {@link
 * PriorPath} chooses on held-out rows. The fitter's tolerance is the solver's relative-change
 * tolerance, its most epochs the most passes over the data, its time budget the path's and the
 * solver's together.
 */
final class FullBatchFit {
  private final Fitter settings;
  private final Kernels kernels;

  /** The seconds the automatic choice expected the fit to take; NaN when the method was given. */
  private final double estimate;

  FullBatchFit(Fitter settings, Kernels kernels, double estimate) {
    this.settings = settings;
    this.kernels = kernels;
    this.estimate = estimate;
  }

  Fit fit(Dataset train) {
    List<String> refused = settings.stochasticOnlySettings();
    if (!refused.isEmpty()) {
      throw new IllegalArgumentException(
          String.join(", ", refused)
              + (refused.size() > 1 ? " do" : " does")
              + " not apply to exact-softmax, which runs L-BFGS on the whole training set until it"
              + " converges (tolerance, maxEpochs, maxSeconds)");
    }
    LbfgsSettings lbfgs = FullBatchSpec.defaultLbfgs(train.columns(), train.classes());
    if (settings.tolerance != null) {
      lbfgs = lbfgs.withRelativeTolerance(settings.tolerance);
    }
    if (settings.maxEpochs != null) {
      lbfgs = lbfgs.withMaxEvaluations(settings.maxEpochs);
    }
    lbfgs = lbfgs.withMaxSeconds(settings.budget());
    int threads = settings.threads();
    FullBatchSoftmax.requireMemory(train, spec(train, 0, threads, lbfgs));
    LinearModel model = initialModel(train);
    long start = System.nanoTime();
    double fraction = settings.priorVariance == null ? settings.heldOutFraction(train.rows()) : 0;
    Fit.Prior prior =
        settings.priorVariance != null
            ? Fit.Prior.fixed(settings.priorVariance, "given")
            : fraction > 0
                ? new PriorPath(settings, kernels, threads, lbfgs, estimate)
                    .choose(train, fraction, model)
                : Fit.Prior.fixed(0, "none: maximum likelihood, nothing held out to choose one");
    if (!prior.path().isEmpty()) {
      double left = settings.budget() - (System.nanoTime() - start) * 1e-9;
      lbfgs = lbfgs.withMaxSeconds(Math.max(left, 1));
    }
    settings.listener.note(
        String.format(
            Locale.ROOT,
            "exact-softmax (full-batch L-BFGS) on %d examples, D = %d, K = %d, %d thread(s), %s",
            train.rows(),
            train.columns(),
            train.classes(),
            threads,
            prior.variance() == 0
                ? "maximum likelihood"
                : String.format(Locale.ROOT, "prior variance %.3g", prior.variance())));
    List<Fit.Epoch> history = new ArrayList<>();
    boolean[] overEstimate = {false};
    FullBatchRun run =
        FullBatchSoftmax.train(
            train,
            model,
            spec(train, prior.variance(), threads, lbfgs),
            kernels,
            (iteration, passes, objective, gradientNorm, change, seconds) -> {
              Fit.Epoch done =
                  new Fit.Epoch(iteration, Watched.OBJECTIVE, objective, change, seconds);
              history.add(done);
              settings.listener.epoch(done);
              double spent = (System.nanoTime() - start) * 1e-9;
              if (!overEstimate[0] && spent > 2 * estimate) {
                overEstimate[0] = true;
                settings.listener.note(
                    String.format(
                        Locale.ROOT,
                        "%.0f s so far, more than twice the %.0f s estimated: the fit goes on to"
                            + " converge within the %.0f s budget (maxSeconds, --max-seconds)",
                        spent,
                        estimate,
                        settings.budget()));
              }
              settings.checkCancelled();
            });
    settings.listener.note(ending(run, lbfgs));
    return new Fit(
        model,
        Method.EXACT_SOFTMAX,
        train.rows(),
        train.classes() - 1,
        threads,
        run.iterations(),
        run.passes(),
        run.stoppedBecause(),
        (System.nanoTime() - start) * 1e-9,
        run.seconds() / run.passes(),
        run.objective(),
        Watched.OBJECTIVE,
        null,
        null,
        history,
        prior);
  }

  static FullBatchSpec spec(Dataset train, double priorVariance, int threads, LbfgsSettings lbfgs) {
    return FullBatchSpec.builder(train.columns(), train.classes())
        .priorVariance(priorVariance)
        .threads(threads)
        .lbfgs(lbfgs)
        .build();
  }

  private LinearModel initialModel(Dataset train) {
    if (settings.init == null) {
      return LinearModel.zeros(Method.EXACT_SOFTMAX.link(), train.classes(), train.columns());
    }
    ScoreModel init = settings.init;
    if (!(init instanceof LinearModel linear)) {
      throw new IllegalArgumentException(
          "the initial model is factorized; exact-softmax fits the linear model");
    }
    StochasticFit.requireShape(
        init, Method.EXACT_SOFTMAX.link(), train.classes(), train.columns(), Method.EXACT_SOFTMAX);
    return linear;
  }

  /** How the run ended, and what to do when it did not converge. */
  private static String ending(FullBatchRun run, LbfgsSettings lbfgs) {
    return switch (run.stoppedBecause()) {
      case CONVERGED ->
          String.format(
              Locale.ROOT,
              "converged (%s) after %d iterations, %d passes: objective %.12g",
              switch (run.outcome()) {
                case GRADIENT_TOLERANCE ->
                    String.format(Locale.ROOT, "|gradient| <= %.1e", lbfgs.gradientTolerance());
                case RELATIVE_TOLERANCE ->
                    String.format(
                        Locale.ROOT, "change <= tolerance %.1e", lbfgs.relativeTolerance());
                default -> "at the objective's rounding noise, the gradient small";
              },
              run.iterations(),
              run.passes(),
              run.objective());
      case NO_PROGRESS ->
          String.format(
              Locale.ROOT,
              "stopped without converging: the line search found no better point, yet |gradient| is"
                  + " %.2e; the model is the best point found, not an optimum (scale the features,"
                  + " or give a larger prior variance)",
              run.gradientNorm());
      default ->
          String.format(
              Locale.ROOT,
              "stopped at %s before converging: the last iteration changed the objective by %.2e"
                  + " relative, more than the tolerance %.1e; allow more %s, or a larger tolerance",
              run.stoppedBecause() == TrainingRun.Stop.MAX_SECONDS
                  ? lbfgs.maxSeconds() + " seconds"
                  : run.outcome() == LbfgsResult.Outcome.MAX_ITERATIONS
                      ? lbfgs.maxIterations() + " iterations"
                      : lbfgs.maxEvaluations() + " passes",
              run.relativeChange(),
              lbfgs.relativeTolerance(),
              run.stoppedBecause() == TrainingRun.Stop.MAX_SECONDS ? "seconds" : "epochs");
    };
  }
}
