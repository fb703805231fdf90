package org.largecat.fit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.largecat.kernel.Kernels;
import org.largecat.model.ScoreModel;
import org.largecat.train.StoppingRule;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerSpec;
import org.largecat.train.TrainingRun;

/**
 * The runs of one fit under the stopping rule: the first with the prior given (or none), then, when
 * the prior is chosen, one per variance of {@link StochasticFit#STOCHASTIC_VARIANCES} from the
 * model and with the step the run before left, each returning its epoch best on the held-out rows,
 * until one does worse than the best before or another run as long as the last would not end within
 * the budget. The model ends as the best run's.
 */
final class PriorRuns {
  private final Fitter settings;
  private final StoppingRule rule;
  private final Kernels kernels;
  private final ScoreModel model;
  private final TrainingRows train;
  private final TrainingRows.Watch watch;
  private final Watched watched;
  private final List<Fit.Epoch> history;
  private final BestEpoch bestRun;
  private final long start = System.nanoTime();
  private final List<Fit.Trial> trials = new ArrayList<>();
  int perEpoch;
  int iterations;
  private int epochs;
  TrainingRun last;
  private double lastSeconds;
  double bestValue = Double.NaN;
  private double bestVariance;

  /**
   * The step of the next run relative to the first's: each run starts with the step the run before
   * ended with, its plateaus' divisions kept, since it starts from that run's model.
   */
  private double stepScale = 1;

  /** The last epoch bound of the run whose model the fit returns. */
  double chosenBound;

  PriorRuns(
      Fitter settings,
      StoppingRule rule,
      Kernels kernels,
      ScoreModel model,
      TrainingRows train,
      TrainingRows.Watch watch,
      Watched watched,
      List<Fit.Epoch> history,
      boolean path) {
    this.settings = settings;
    this.rule = rule;
    this.kernels = kernels;
    this.model = model;
    this.train = train;
    this.watch = watch;
    this.watched = watched;
    this.history = history;
    this.bestRun = path ? BestEpoch.of(model) : null;
  }

  /** One run under the rule from the model as it is, its best epoch restored when held out. */
  TrainingRun run(TrainerSpec spec) {
    long begun = System.nanoTime();
    BestEpoch best = null;
    if (watched == Watched.HELD_OUT_ROWS) {
      best = BestEpoch.of(model);
      if (best == null) {
        settings.listener.note(
            "the heap has no room for a copy of the model: the model returned is the last"
                + " epoch's, not the best on the held-out rows");
      }
    }
    double spent = (begun - start) * 1e-9;
    StoppingRule left =
        new StoppingRule(
            rule.tolerance(),
            rule.patience(),
            rule.maxEpochs() - epochs,
            Math.max(rule.maxSeconds() - spent, 1e-3),
            rule.stepReductions());
    int[] reductions = {0};
    try (Trainer trainer = new CancellableTrainer(train.trainer(model, spec, kernels), settings)) {
      perEpoch = trainer.iterationsPerEpoch();
      if (stepScale != 1) {
        trainer.scaleStepSize(stepScale);
      }
      last = TrainingRun.until(trainer, left, watch, progress(best, reductions));
    }
    stepScale *= Math.pow(StoppingRule.STEP_DIVISOR, -reductions[0]);
    iterations += last.iterations();
    epochs += (int) Math.round(last.epochs(perEpoch));
    bestValue = last.lastWatched();
    if (best != null) {
      int epoch = best.restore();
      if (epoch > 0) {
        settings.listener.note(
            String.format(
                Locale.ROOT,
                "the model is epoch %d's, the best on the held-out rows (%.6g), not the last"
                    + " epoch's (%.6g)",
                epoch,
                best.best(),
                last.lastWatched()));
      }
      bestValue = best.best();
    }
    lastSeconds = (System.nanoTime() - begun) * 1e-9;
    if (bestRun != null) {
      if (bestValue > bestRun.best()) {
        chosenBound = last.lastEpochBound();
      }
      bestRun.epoch(trials.size() + 1, bestValue);
    }
    return last;
  }

  /**
   * Whether another run as long as the last still ends within the time budget, and epochs are left
   * of the rule's most (which the runs share); says so when not.
   */
  boolean affords(double budget) {
    double spent = (System.nanoTime() - start) * 1e-9;
    String shortOf =
        bestRun == null
            ? "the heap has no room for a copy of the model"
            : spent + lastSeconds > budget
                ? String.format(Locale.ROOT, "another run would end past the %.0f s budget", budget)
                : epochs >= rule.maxEpochs()
                    ? "the runs have used the most epochs, " + rule.maxEpochs()
                    : null;
    if (shortOf != null) {
      settings.listener.note("no stronger prior tried: " + shortOf);
    }
    return shortOf == null;
  }

  /**
   * Runs on under {@code variance}'s prior; returns whether it did better on the held-out rows than
   * every run before (so that a stronger prior may do better still).
   */
  boolean tryVariance(TrainerSpec spec, double variance) {
    if (trials.isEmpty()) {
      trials.add(new Fit.Trial(0, bestValue, last.iterations(), elapsed()));
      bestVariance = 0;
    }
    double before = bestRun.best();
    settings.listener.note(
        String.format(
            Locale.ROOT,
            "prior variance %.0e, from the model so far (held-out log-likelihood %.6g)",
            variance,
            before));
    run(spec);
    trials.add(new Fit.Trial(variance, bestValue, last.iterations(), elapsed()));
    if (bestValue > before) {
      bestVariance = variance;
      return true;
    }
    return false;
  }

  /**
   * The prior of the best run, its best epoch's parameters put back into the model; {@code none}
   * when no variance was tried.
   */
  Fit.Prior chosen(Fit.Prior none) {
    if (trials.isEmpty()) {
      return none;
    }
    bestRun.restore();
    bestValue = bestRun.best();
    String reason =
        String.format(
            Locale.ROOT,
            "chosen on the held-out rows (log-likelihood %.6f) among maximum likelihood and the"
                + " variances after it, each run from the model before",
            bestValue);
    settings.listener.note(
        bestVariance == 0
            ? "no prior: maximum likelihood did best on the held-out rows"
            : String.format(Locale.ROOT, "prior variance %.0e %s", bestVariance, reason));
    return new Fit.Prior(bestVariance, reason, trials);
  }

  double elapsed() {
    return (System.nanoTime() - start) * 1e-9;
  }

  /**
   * Tells the listener of each epoch, the bound per training example (the trainers estimate it on
   * the whole set), keeps {@code best} up to date and {@code reductions[0]} the step's divisions.
   */
  private TrainingRun.EpochProgress progress(BestEpoch best, int[] reductions) {
    int most = rule.stepReductions();
    return new TrainingRun.EpochProgress() {
      @Override
      public void epoch(int epoch, double value, double improvement, double seconds) {
        if (best != null) {
          best.epoch(epoch, value);
        }
        double shown = watched == Watched.TRAIN_BOUND ? value / train.rows() : value;
        Fit.Epoch done = new Fit.Epoch(epoch, watched, shown, improvement, seconds);
        history.add(done);
        settings.listener.epoch(done);
      }

      @Override
      public void stepReduced(int epoch, int reduced) {
        reductions[0] = reduced;
        settings.listener.stepReduced(epoch, reduced, most);
      }
    };
  }
}
