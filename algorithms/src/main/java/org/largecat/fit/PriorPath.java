package org.largecat.fit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.eval.Evaluation;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.train.LbfgsSettings;
import org.largecat.train.fullbatch.AutomaticMethod;
import org.largecat.train.fullbatch.FullBatchRun;
import org.largecat.train.fullbatch.FullBatchSoftmax;

/**
 * Chooses the full-batch solver's prior variance on held-out rows, as scikit-learn's {@code
 * LogisticRegressionCV} and glmnet choose theirs: the MAP fit on the rows kept for each variance of
 * a path from strong to weak, each started from the fit before (a strong prior converges in few
 * iterations and puts the next one close to its optimum), scored by the held-out rows' exact
 * log-likelihood. The path stops at the first variance that scores worse than the best so far (the
 * held-out score of a ridge path rises to one peak), when half the time budget is spent, or when it
 * has taken twice what the automatic choice estimated for the whole fit.
 */
final class PriorPath {
  /** The variances tried, strongest prior first: a decade apart, as LogisticRegressionCV's Cs. */
  static final double[] VARIANCES = {1e-3, 1e-2, 1e-1, 1, 10, 100, 1000};

  /**
   * The relative tolerance of the fits on the path: their held-out scores differ by far more than
   * what a tighter solve would change, and the final fit on all rows solves to the full tolerance.
   */
  static final double PATH_TOLERANCE = 1e-6;

  private final Fitter settings;
  private final Kernels kernels;
  private final int threads;
  private final LbfgsSettings lbfgs;

  /** The seconds the automatic choice expected the fit to take; NaN when the method was given. */
  private final double estimate;

  PriorPath(Fitter settings, Kernels kernels, int threads, LbfgsSettings lbfgs, double estimate) {
    this.settings = settings;
    this.kernels = kernels;
    this.threads = threads;
    this.estimate = estimate;
    this.lbfgs = lbfgs.withRelativeTolerance(Math.max(lbfgs.relativeTolerance(), PATH_TOLERANCE));
  }

  /**
   * Holds out {@code fraction} of {@code data} with the seed, runs the path on the rest, leaves the
   * chosen variance's fit in {@code model} (the start of the final fit on all rows) and returns it.
   */
  Fit.Prior choose(Dataset data, double fraction, LinearModel model) {
    Dataset[] split = Preprocessing.holdOut(data, fraction, settings.seed());
    Dataset kept = split[0];
    Dataset heldOut = split[1];
    double budget = settings.budget();
    settings.listener.note(
        String.format(
            Locale.ROOT,
            "choosing the prior variance on %d held-out examples: MAP fits on the other %d, from"
                + " %.0e up by decades, until the held-out log-likelihood falls",
            heldOut.rows(),
            kept.rows(),
            VARIANCES[0]));
    long start = System.nanoTime();
    float[] bestWeights = model.weights().clone();
    double[] bestBiases = model.biases().clone();
    double bestScore = Double.NEGATIVE_INFINITY;
    double bestVariance = VARIANCES[0];
    List<Fit.Trial> path = new ArrayList<>();
    String ended = "the largest on the path";
    for (double variance : VARIANCES) {
      double spent = (System.nanoTime() - start) * 1e-9;
      if (!path.isEmpty() && spent > budget / 2) {
        ended = String.format(Locale.ROOT, "the path stopped at half the %.0f s budget", budget);
        break;
      }
      if (!path.isEmpty() && spent > 2 * estimate) {
        ended =
            String.format(
                Locale.ROOT,
                "the path stopped at %.0f s, more than twice the %.0f s estimated",
                spent,
                estimate);
        break;
      }
      FullBatchRun run =
          FullBatchSoftmax.train(
              kept,
              model,
              FullBatchFit.spec(
                  kept, variance, threads, lbfgs.withMaxSeconds(Math.max(budget - spent, 1))),
              kernels,
              (iteration, passes, objective, gradientNorm, change, seconds) ->
                  settings.checkCancelled());
      if (path.isEmpty()) {
        reestimate(run, budget);
      }
      int iterations = run.iterations();
      double score = Evaluation.evaluate(model, heldOut, kernels, 1, threads).meanLogLikelihood();
      Fit.Trial trial =
          new Fit.Trial(variance, score, iterations, (System.nanoTime() - start) * 1e-9);
      path.add(trial);
      settings.listener.note(
          String.format(
              Locale.ROOT,
              "  prior variance %-7.0e held-out log-likelihood %.6f (%d iterations, %.1f s)",
              variance,
              score,
              iterations,
              trial.seconds()));
      if (!(score > bestScore)) {
        ended = "the held-out log-likelihood fell after it";
        break;
      }
      bestScore = score;
      bestVariance = variance;
      System.arraycopy(model.weights(), 0, bestWeights, 0, bestWeights.length);
      System.arraycopy(model.biases(), 0, bestBiases, 0, bestBiases.length);
    }
    System.arraycopy(bestWeights, 0, model.weights(), 0, bestWeights.length);
    System.arraycopy(bestBiases, 0, model.biases(), 0, bestBiases.length);
    String reason =
        String.format(
            Locale.ROOT,
            "chosen on %d held-out examples (log-likelihood %.6f; %s); refitted on all %d",
            heldOut.rows(),
            bestScore,
            ended,
            data.rows());
    settings.listener.note(
        String.format(Locale.ROOT, "prior variance %.0e %s", bestVariance, reason));
    return new Fit.Prior(bestVariance, reason, path);
  }

  /**
   * Tells the listener what the first fit's measured time per pass makes of the estimate the
   * automatic choice printed, and that the budget will cut the path when it is short.
   */
  private void reestimate(FullBatchRun first, double budget) {
    double perPass = first.seconds() / first.passes();
    int passes = AutomaticMethod.assumedPasses(true);
    double estimate = perPass * passes;
    settings.listener.note(
        String.format(
            Locale.ROOT,
            "measured %.3g s a pass: the path and the final fit, about %d passes, would take about"
                + " %.0f s%s",
            perPass,
            passes,
            estimate,
            estimate > budget
                ? String.format(
                    Locale.ROOT,
                    ", more than the %.0f s budget: the path stops at half of it and the final fit"
                        + " at the rest (maxSeconds, --max-seconds, gives more)",
                    budget)
                : ""));
  }
}
