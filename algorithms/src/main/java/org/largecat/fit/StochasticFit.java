package org.largecat.fit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.StoppingRule;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerSpec;
import org.largecat.train.TrainingDivergedException;
import org.largecat.train.TrainingRun;
import org.largecat.train.sampled.FactorizedTrainer;

/** A {@link Fitter}'s run of a sampled-bound or double-sum trainer, under the stopping rule. */
final class StochasticFit {
  /** The fewest training rows the stopping rule watches, unless the set has fewer. */
  static final int MIN_WATCHED_ROWS = 1_000;

  /** The most training rows the stopping rule watches. */
  static final int MAX_WATCHED_ROWS = 10_000;

  private final Fitter settings;
  private final Method method;
  private final Kernels kernels;

  StochasticFit(Fitter settings, Method method, Kernels kernels) {
    this.settings = settings;
    this.method = method;
    this.kernels = kernels;
  }

  Fit fit(TrainingRows rows) {
    requireApplicable();
    TrainingRows train = rows;
    TrainingRows heldOut = null;
    double fraction = settings.heldOutFraction(rows.rows());
    if (fraction > 0) {
      TrainingRows[] split = rows.holdOut(fraction, settings.seed());
      train = split[0];
      heldOut = split[1];
    }
    Sizes sizes = sizes(train);
    StepSizeSchedule step = schedule(sizes, train.rows());
    boolean path = choosesPrior(heldOut != null);
    double firstVariance = path ? 0 : Objects.requireNonNullElse(settings.priorVariance, 0.0);
    TrainerSpec spec = spec(sizes, step, firstVariance, train.classes());
    ScoreModel model =
        settings.init != null ? initialModelChecked(train) : initialModel(train, spec);
    settings.listener.note(
        String.format(
            Locale.ROOT,
            "%s%s on %d examples, D = %d, K = %d, |B| = %d, |S| = %d, %d thread(s)",
            method.label(),
            settings.rank == null ? "" : ", rank " + settings.rank,
            train.rows(),
            train.columns(),
            train.classes(),
            sizes.batch(),
            sizes.sampled(),
            spec.threads()));
    Watched watched = null;
    List<Fit.Epoch> history = new ArrayList<>();
    TrainingRun run;
    int perEpoch;
    Integer watchedRows = null;
    Fit.Prior prior = prior(heldOut != null);
    double watchedValue = Double.NaN;
    try (TrainingRows.Watch watch = watch(model, train, heldOut, spec)) {
      watchedRows = watch == null ? null : watch.rows();
      if (settings.fixedLength()) {
        try (Trainer trainer =
            new CancellableTrainer(train.trainer(model, spec, kernels), settings)) {
          perEpoch = trainer.iterationsPerEpoch();
          int total =
              settings.iterations != null
                  ? settings.iterations
                  : Math.multiplyExact(perEpoch, settings.epochs);
          run = TrainingRun.run(trainer, total, 2, settings.listener::iteration);
        }
      } else {
        watched =
            watch == null
                ? Watched.TRAIN_BOUND
                : heldOut != null
                    ? Watched.HELD_OUT_ROWS
                    : penalised(method) ? Watched.TRAINING_OBJECTIVE : Watched.TRAINING_ROWS;
        PriorRuns runs =
            new PriorRuns(
                settings,
                settings.rule(method),
                kernels,
                model,
                train,
                watch,
                watched,
                history,
                path);
        run = runs.run(spec);
        perEpoch = runs.perEpoch;
        watchedValue = runs.bestValue;
        if (path) {
          for (double variance : STOCHASTIC_VARIANCES) {
            if (!runs.affords(settings.budget())) {
              break;
            }
            if (!runs.tryVariance(spec(sizes, step, variance, train.classes()), variance)) {
              break;
            }
          }
          prior = runs.chosen(prior);
          run =
              new TrainingRun(
                  runs.iterations,
                  runs.elapsed(),
                  runs.last.secondsPerEpoch(),
                  runs.chosenBound,
                  runs.last.stoppedBecause(),
                  runs.last.lastImprovement(),
                  runs.last.lastWatched());
          watchedValue = runs.bestValue;
        }
      }
    } catch (TrainingDivergedException e) {
      throw diverged(e, step);
    }
    reportUnconverged(run);
    return new Fit(
        model,
        method,
        sizes.batch(),
        sizes.sampled(),
        spec.threads(),
        run.iterations(),
        run.epochs(perEpoch),
        run.stoppedBecause(),
        run.seconds(),
        run.secondsPerEpoch(),
        run.lastEpochBound() / train.rows(),
        watched,
        watchedRows == null ? null : watchedValue,
        watchedRows,
        history,
        prior);
  }

  /**
   * The seconds an epoch of this method takes on {@code train} here, from a model started as the
   * fit would start it: the fastest of {@value #TIMED_STEPS} steps after one that warms up, times
   * the iterations of an epoch. The steps move a model of their own, which is then dropped.
   */
  double secondsPerEpoch(TrainingRows train) {
    Sizes sizes = sizes(train);
    TrainerSpec spec = spec(sizes, schedule(sizes, train.rows()), 0, train.classes());
    try (Trainer trainer = train.trainer(initialModel(train, spec), spec, kernels)) {
      trainer.step();
      double fastest = Double.POSITIVE_INFINITY;
      for (int i = 0; i < TIMED_STEPS; i++) {
        long start = System.nanoTime();
        trainer.step();
        fastest = Math.min(fastest, (System.nanoTime() - start) * 1e-9);
      }
      return fastest * trainer.iterationsPerEpoch();
    }
  }

  /** The steps {@link #secondsPerEpoch} times. */
  static final int TIMED_STEPS = 3;

  /**
   * ρ₀ times the iterations of an epoch, the most the factorized model's constant adaptive step
   * under the rule takes: the step moves a coordinate by about ρ₀ an iteration whatever the
   * gradient's scale, so an epoch of many iterations moves the tables far. At 1,405 iterations an
   * epoch (kjv-nextword, rank 100) ρ₀ = 0.02 made the held-out log-likelihood fall from the first
   * epoch on, and from 0.008 down to 0.0005 the smaller step gained more in the same epochs, on the
   * held-out rows and the test rows alike (bench/log has the figures).
   */
  static final double FACTORIZED_EPOCH_MOVE = 1;

  /**
   * The prior variances tried after the maximum-likelihood run, weakest first, each from the model
   * the one before left: a coarse path, as the stochastic runs are costly.
   */
  static final double[] STOCHASTIC_VARIANCES = {1, 0.1, 0.01};

  /**
   * Whether this fit chooses its prior on the held-out rows: the sampled-bound methods of the
   * softmax link, with rows held out and no prior given.
   */
  private boolean choosesPrior(boolean heldOut) {
    return heldOut
        && settings.priorVariance == null
        && !method.isDoubleSum()
        && method.link() == Link.SOFTMAX;
  }

  /**
   * The prior of this fit: the one given, else maximum likelihood (stopped early when held out).
   */
  private Fit.Prior prior(boolean heldOut) {
    if (method.isDoubleSum()) {
      return Fit.Prior.fixed(0, "none: the double-sum methods' regulariser is the ridge");
    }
    if (settings.priorVariance != null) {
      return Fit.Prior.fixed(settings.priorVariance, "given");
    }
    return Fit.Prior.fixed(
        0,
        heldOut
            ? "none: maximum likelihood, stopped early on the held-out rows"
            : "none: maximum likelihood");
  }

  /** Settings this method does not take are errors. */
  private void requireApplicable() {
    if (settings.fixedLength()) {
      List<String> rule = new ArrayList<>();
      if (settings.epochs != null && settings.iterations != null) {
        throw new IllegalArgumentException("set epochs or iterations, not both");
      }
      Fitter.addIf(rule, settings.tolerance != null, "tolerance");
      Fitter.addIf(rule, settings.patience != null, "patience");
      Fitter.addIf(rule, settings.maxEpochs != null, "maxEpochs");
      Fitter.addIf(rule, settings.maxSeconds != null, "maxSeconds");
      Fitter.addIf(rule, settings.stepReductions != null, "stepReductions");
      Fitter.addIf(rule, settings.validationFraction != null, "validationFraction");
      if (!rule.isEmpty()) {
        throw new IllegalArgumentException(
            String.join(", ", rule)
                + " set the stopping rule, which runs only when neither epochs nor iterations is set");
      }
    }
    if (method.isDoubleSum()) {
      if (settings.rank != null) {
        throw new IllegalArgumentException(
            "rank applies to the sampled-bound methods, not " + method.label());
      }
      if (settings.sampling != null
          || settings.samplingPower != 0
          || settings.priorVariance != null) {
        throw new IllegalArgumentException(
            "sampling, samplingPower and priorVariance apply to the sampled-bound methods, not "
                + method.label()
                + " (its regulariser is ridge)");
      }
      boolean onePair = method != Method.IMPLICIT_SGD_BATCH;
      if (onePair && (settings.batch != null || settings.sampled != null)) {
        throw new IllegalArgumentException(
            "batch and sampled do not apply to "
                + method.label()
                + ", which takes one datapoint and one class per iteration");
      }
    } else if (settings.ridge != null) {
      throw new IllegalArgumentException("ridge applies to the double-sum methods only");
    }
  }

  /** |B| and |S|, or isgd-batch's n and m (1 and 1 for the other double-sum methods). */
  private record Sizes(int batch, int sampled) {}

  /** The sizes on {@code train}: the method's defaults, or the settings given, fitted to it. */
  private Sizes sizes(TrainingRows train) {
    int defaultBatch;
    int defaultSampled;
    if (method.isDoubleSum()) {
      DoubleSumSpec defaults = DoubleSumSpec.builder(method).build();
      defaultBatch = defaults.batchPoints();
      defaultSampled = defaults.batchClasses();
    } else {
      SampledSpec defaults = SampledSpec.builder(method).build();
      defaultBatch = defaults.batch();
      defaultSampled = defaults.sampled();
    }
    boolean onePair = method.isDoubleSum() && method != Method.IMPLICIT_SGD_BATCH;
    int others = train.classes() - 1;
    if (method == Method.EXACT_SOFTMAX_SGD
        && settings.sampled != null
        && settings.sampled != others) {
      settings.listener.note(
          "sampled = "
              + settings.sampled
              + " is ignored: exact-softmax-sgd sums over all "
              + others
              + " classes besides the label");
    }
    int batch =
        onePair
            ? 1
            : fitted("batch", settings.batch, defaultBatch, train.rows(), "training examples");
    int sampled =
        onePair
            ? 1
            : method == Method.EXACT_SOFTMAX_SGD
                ? Math.max(others, 1)
                : fitted(
                    "sampled",
                    settings.sampled,
                    defaultSampled,
                    others,
                    "classes besides the label (K = " + train.classes() + ")");
    return new Sizes(batch, sampled);
  }

  /**
   * The trainer's spec on {@code classes} classes: the method's defaults with the sizes, the step
   * and the settings given; a double-sum method takes η and its decay from the step, which {@link
   * #schedule} makes plain SGD.
   */
  private TrainerSpec spec(Sizes sizes, StepSizeSchedule step, double priorVariance, int classes) {
    if (method.isDoubleSum()) {
      StepSizeSchedule.Sgd sgd = (StepSizeSchedule.Sgd) step;
      DoubleSumSpec.Builder builder =
          DoubleSumSpec.builder(method)
              .miniBatch(sizes.batch(), sizes.sampled())
              .learningRate(sgd.learningRate())
              .epochDecay(sgd.epochDecay())
              .ridge(Objects.requireNonNullElse(settings.ridge, 0.0))
              .seed(settings.seed())
              .threads(settings.threads());
      if (DoubleSumSpec.averagesByDefault(method) && !settings.fixedLength()) {
        builder.stepPower(DoubleSumSpec.UNDER_RULE_STEP_POWER);
        if (settings.learningRate == null) {
          builder
              .learningRate(DoubleSumSpec.underRuleNormalisedRate(method, classes))
              .normalisedRate(true)
              .uLearningRate(DoubleSumSpec.UNDER_RULE_U_RATE);
        }
      }
      return builder.build();
    }
    return SampledSpec.builder(method)
        .batch(sizes.batch())
        .sampled(sizes.sampled())
        .seed(settings.seed())
        .threads(settings.threads())
        .sampling(settings.sampling())
        .samplingPower(settings.samplingPower)
        .stepSize(step)
        .priorVariance(priorVariance)
        .build();
  }

  /**
   * The size given (else {@code byDefault}) capped at {@code most}, saying so when a size given is
   * capped.
   */
  private int fitted(String setting, Integer given, int byDefault, long most, String what) {
    int size = Objects.requireNonNullElse(given, byDefault);
    if (size <= most || most < 1) {
      return size;
    }
    if (given != null) {
      settings.listener.note(
          String.format(
              Locale.ROOT,
              "%s = %d is more than the %d %s; using %d",
              setting,
              given,
              most,
              what,
              most));
    }
    return (int) most;
  }

  /**
   * The step: A&R's adaptive schedule (the A&R methods' default) with ρ₀ the learning rate given,
   * or plain SGD (the only step of nce, is and the double-sum methods) at the method's default
   * rate. With a fixed length they decay as the papers have them; under the stopping rule they are
   * constant and the rule divides them on plateaus, the factorized model's ρ₀ at most {@value
   * #FACTORIZED_EPOCH_MOVE} over the iterations of an epoch of {@code rows}.
   */
  private StepSizeSchedule schedule(Sizes sizes, long rows) {
    boolean sgdOnly =
        method.isDoubleSum() || method == Method.NCE || method == Method.IMPORTANCE_SAMPLING;
    boolean fixed = settings.fixedLength();
    Fitter.Step step =
        Objects.requireNonNullElse(settings.step, sgdOnly ? Fitter.Step.SGD : Fitter.Step.ADAPTIVE);
    if (step == Fitter.Step.ADAPTIVE) {
      if (sgdOnly) {
        throw new IllegalArgumentException(method.label() + " runs plain SGD (step SGD)");
      }
      StepSizeSchedule.Adaptive schedule = StepSizeSchedule.adaptive(settings.rank != null, fixed);
      double rho0 = schedule.rho0();
      if (settings.rank != null && !fixed) {
        rho0 = Math.min(rho0, FACTORIZED_EPOCH_MOVE / Math.ceilDiv(rows, sizes.batch()));
      }
      return schedule.withRho0(Objects.requireNonNullElse(settings.learningRate, rho0));
    }
    return new StepSizeSchedule.Sgd(
        Objects.requireNonNullElse(
            settings.learningRate, TrainerSpec.defaultSgdLearningRate(method)),
        fixed ? 0.9 : 1);
  }

  /**
   * The starting model: zeros for the double-sum methods (Algorithm 1), else A&R's random start.
   */
  private ScoreModel initialModel(TrainingRows train, TrainerSpec spec) {
    if (settings.rank != null) { // requireApplicable refused a rank for the double-sum methods
      return FactorizedTrainer.initialModel(
          train.classes(), train.columns(), (SampledSpec) spec, settings.rank);
    }
    return Trainers.initialModel(train.classes(), train.columns(), spec);
  }

  /** The model given to go on from, if it is of the kind, link and shape of this fit. */
  private ScoreModel initialModelChecked(TrainingRows train) {
    ScoreModel model = settings.init;
    Integer saved = model instanceof FactorizedModel f ? f.rank() : null;
    if (!Objects.equals(saved, settings.rank)) {
      throw new IllegalArgumentException(
          "the initial model is a "
              + (saved == null ? "linear model" : "factorized model of rank " + saved)
              + ", which cannot start a fit "
              + (settings.rank == null ? "of the linear model" : "of rank " + settings.rank));
    }
    requireShape(model, method.link(), train.classes(), train.columns(), method);
    return model;
  }

  /** {@code model} must have this link and shape to start {@code method}. */
  static void requireShape(ScoreModel model, Link link, int classes, int columns, Method method) {
    if (model.link() != link || model.classes() != classes || model.columns() != columns) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "the initial model, %s with K = %d, D = %d, cannot start %s on data with K = %d, D ="
                  + " %d",
              model.link(),
              model.classes(),
              model.columns(),
              method.label(),
              classes,
              columns));
    }
  }

  /**
   * What the stopping rule watches besides the epoch's mean bound: the held-out rows, else, for the
   * softmax link's sampled-bound methods, a fixed sample of training rows; null for neither.
   */
  private TrainingRows.Watch watch(
      ScoreModel model, TrainingRows train, TrainingRows heldOut, TrainerSpec spec) {
    if (settings.fixedLength()) {
      return null;
    }
    TrainingRows.Watch watch;
    if (heldOut != null) {
      int count = (int) Math.min(heldOut.rows(), watchedRows(train, spec));
      watch = heldOut.watch(model, count, settings.seed(), spec.threads(), kernels);
      settings.listener.note(
          String.format(
              Locale.ROOT,
              "%d examples held out; the stopping rule watches the log-likelihood of %s",
              heldOut.rows(),
              count == heldOut.rows() ? "all of them" : count + " of them"));
    } else if (penalised(method)) {
      watch =
          penalised(
              train.watch(
                  model,
                  (int) Math.min(train.rows(), MAX_WATCHED_ROWS),
                  settings.seed(),
                  spec.threads(),
                  kernels),
              (LinearModel) model,
              settings.ridge);
      settings.listener.note(
          String.format(
              Locale.ROOT,
              "the stopping rule watches the objective, the exact log-likelihood less the ridge"
                  + " (mu/2)|W|^2, on %s",
              watch.rows() == train.rows()
                  ? "all training rows"
                  : watch.rows() + " training rows"));
    } else if (watchesTrainingRows(method)) {
      watch =
          train.watch(model, watchedRows(train, spec), settings.seed(), spec.threads(), kernels);
      settings.listener.note(
          "the stopping rule watches the exact log-likelihood of "
              + watch.rows()
              + " training rows");
    } else {
      return null;
    }
    return watch;
  }

  /**
   * Whether the rule watches {@code method}'s objective on the training rows: a double-sum method
   * that watches rows ({@link #watchesTrainingRows}), given a ridge. The objective is then the
   * user's, so the rule watches it whole, on all rows up to {@value #MAX_WATCHED_ROWS}: a smaller
   * sample's own optimum lies elsewhere, and near the objective's its log-likelihood can fall while
   * the objective still improves.
   */
  private boolean penalised(Method method) {
    return settings.ridge != null && method.isDoubleSum() && watchesTrainingRows(method);
  }

  /**
   * {@code watch} less the ridge term (μ/2)‖W̃‖² of {@code model}'s extended rows: the double-sum
   * methods' objective, per example, with the sign of a log-likelihood.
   */
  private static TrainingRows.Watch penalised(
      TrainingRows.Watch watch, LinearModel model, double ridge) {
    return new TrainingRows.Watch() {
      @Override
      public int rows() {
        return watch.rows();
      }

      @Override
      public double getAsDouble() {
        double squares = 0;
        for (float w : model.weights()) {
          squares += (double) w * w;
        }
        for (double b : model.biases()) {
          squares += b * b;
        }
        return watch.getAsDouble() - 0.5 * ridge * squares;
      }

      @Override
      public void close() {
        watch.close();
      }
    };
  }

  /**
   * Whether the rule watches training rows for {@code method}: the softmax link's sampled-bound
   * methods, whose epoch-mean bound carries the exponential of stale per-example terms and so
   * reaches −10⁹ where the exact value is −7; and the double-sum methods that average their
   * iterates ({@link DoubleSumSpec#averagesByDefault}), whose bound is the iterate's, with u_i a
   * whole epoch stale, not the average's. Not probit and logistic, whose exact log-likelihood is a
   * quadrature of hundreds of K-wide passes an example; nor sgd and umax-raman, whose weights at an
   * epoch's end jitter with their one-class steps by about 1% of the log-likelihood, which the
   * epoch's mean of their bound averages out.
   */
  static boolean watchesTrainingRows(Method method) {
    return method.link() == Link.SOFTMAX
        && (method.isDoubleSum() ? DoubleSumSpec.averagesByDefault(method) : !method.isFullBatch());
  }

  /**
   * As many training rows as make their K scores each about an epoch's (N·(|S| + 1), or N·K for the
   * exact step), so that watching costs a fraction of an epoch, within [{@value #MIN_WATCHED_ROWS},
   * {@value #MAX_WATCHED_ROWS}] and at most N. The same rows every epoch, so that two epochs differ
   * by the fit's change and not by which rows were drawn.
   */
  static int watchedRows(long rows, int classes, SampledSpec spec) {
    long scored =
        spec.method() == Method.EXACT_SOFTMAX_SGD
            ? classes
            : Math.min(classes, spec.sampled() + 1L);
    return watchedRows(rows, classes, scored);
  }

  /**
   * The rows to watch when training {@code spec} on {@code train}: a double-sum step scores two.
   */
  private static int watchedRows(TrainingRows train, TrainerSpec spec) {
    return spec instanceof SampledSpec sampled
        ? watchedRows(train.rows(), train.classes(), sampled)
        : watchedRows(train.rows(), train.classes(), 2);
  }

  /** The same for a method that scores {@code scored} classes an example in an epoch. */
  static int watchedRows(long rows, int classes, long scored) {
    return (int)
        Math.min(rows, Math.clamp(rows * scored / classes, MIN_WATCHED_ROWS, MAX_WATCHED_ROWS));
  }

  /** Says which limit stopped {@code run} before it converged, if one did. */
  private void reportUnconverged(TrainingRun run) {
    if (run.converged() != Boolean.FALSE) {
      return;
    }
    StoppingRule rule = settings.rule(method);
    boolean epochs = run.stoppedBecause() == TrainingRun.Stop.MAX_EPOCHS;
    settings.listener.note(
        String.format(
            Locale.ROOT,
            "stopped at %s before converging: the last epoch changed the watched value by %.2e"
                + " relative, and the rule wants %d epochs in a row below the tolerance %.3g; allow"
                + " more %s or a larger tolerance",
            epochs ? rule.maxEpochs() + " epochs" : rule.maxSeconds() + " seconds",
            run.lastImprovement(),
            rule.patience(),
            rule.tolerance(),
            epochs ? "epochs" : "seconds"));
  }

  /** {@code e} with the step that diverged and the fix, unless its message gives them. */
  private static TrainingDivergedException diverged(
      TrainingDivergedException e, StepSizeSchedule step) {
    String message = e.getMessage();
    if (message.contains("learning rate")) {
      return e;
    }
    message +=
        switch (step) {
          case StepSizeSchedule.Adaptive a ->
              String.format(
                  Locale.ROOT,
                  "; the adaptive step started at rho0 = %g: give a smaller learning rate",
                  a.rho0());
          case StepSizeSchedule.Sgd sgd ->
              String.format(
                  Locale.ROOT,
                  "; plain SGD at learning rate %g: give a smaller learning rate",
                  sgd.learningRate());
        };
    TrainingDivergedException told = new TrainingDivergedException(message);
    told.initCause(e);
    return told;
  }
}
