package org.largecat.fit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import org.largecat.data.Dataset;
import org.largecat.kernel.Kernels;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;
import org.largecat.train.DoubleSumSpec;
import org.largecat.train.Method;
import org.largecat.train.Sampling;
import org.largecat.train.StoppingRule;
import org.largecat.train.fullbatch.AutomaticMethod;

/**
 * Fits a model to labelled rows: the one training flow of largecat, which {@code largecat train},
 * {@code largecat spark train}, the Spark ML stage and a program calling the library all go
 * through. It chooses the method when none is given, sizes the mini-batches to the data, starts the
 * model, decides what the stopping rule watches, and runs the trainer until the rule, a limit or a
 * cancellation ends it.
 *
 * <pre>{@code
 * Fit fit = Fitter.softmax().seed(1).fit(Dataset.dense(x, y, classes));
 * Classifier model = fit.classifier();
 * }</pre>
 *
 * <p>Every setting is optional; what is not set takes the default of {@code largecat train}. A
 * setter rejects a value outside its range at once; settings that contradict each other are
 * rejected by {@link #fit}. A {@code Fitter} is a builder: configure it on one thread, then call
 * {@link #fit} (which may be called again, on other data).
 */
public final class Fitter {
  /** The share of the training rows held out by default. */
  public static final double HELD_OUT_FRACTION = 0.1;

  /** The fewest rows held out by default, unless that is more than a fifth of them. */
  public static final int MIN_HELD_OUT_ROWS = 1_000;

  /** The most rows held out by default. */
  public static final int MAX_HELD_OUT_ROWS = 10_000;

  /** The time budget of a fit when none is given, in seconds. */
  public static final double DEFAULT_SECONDS = 300;

  /** How the sampled-bound methods step: A&R's adaptive schedule, or plain SGD. */
  public enum Step {
    /** A&R's adaptive per-coordinate schedule (A&R §4): the A&R methods' default. */
    ADAPTIVE,
    /** Plain SGD: the only step of nce, is and the double-sum methods. */
    SGD
  }

  Link link;
  Method method;
  Integer rank;
  Double priorVariance;
  Integer batch;
  Integer sampled;
  Sampling sampling;
  double samplingPower;
  Step step;
  Double learningRate;
  Double ridge;
  Integer threads;
  Long seed;
  Double tolerance;
  Integer patience;
  Integer maxEpochs;
  Integer stepReductions;
  Double maxSeconds;
  Double validationFraction;
  Integer epochs;
  Integer iterations;
  ScoreModel init;
  FitListener listener = FitListener.NONE;
  BooleanSupplier cancelled = () -> false;

  private Fitter(Link link) {
    this.link = link;
  }

  /** A fitter of the softmax model: by default the exact softmax where it fits, else A&R. */
  public static Fitter softmax() {
    return new Fitter(Link.SOFTMAX);
  }

  /** A fitter of the model with this link: softmax, or multinomial probit or logistic (A&R). */
  public static Fitter of(Link link) {
    return new Fitter(Objects.requireNonNull(link, "link"));
  }

  /** The model's link; {@link #method} sets it too, and the two must agree. */
  public Fitter link(Link link) {
    this.link = Objects.requireNonNull(link, "link");
    return this;
  }

  /** The training method, instead of the automatic choice; sets the link to the method's. */
  public Fitter method(Method method) {
    this.method = Objects.requireNonNull(method, "method");
    this.link = method.link();
    return this;
  }

  /**
   * Fits the factorized model ψ_k = u_k · (Σ_j x_j v_j) + b_k with embeddings of width {@code
   * rank}, (K + D)·rank weights, instead of the linear one (K·D); sampled-bound methods only.
   */
  public Fitter rank(int rank) {
    this.rank = positive("rank", rank);
    return this;
  }

  /**
   * A N(0, {@code variance}) prior on every weight and bias: the fit is the MAP estimate, and 0 is
   * maximum likelihood. A prior given is the objective and is kept. When none is given, the
   * full-batch solver chooses one on the held-out slice ({@link #validationFraction}); the other
   * methods fit by maximum likelihood, stopped early on that slice. Not for the double-sum methods
   * (their {@link #ridge}).
   */
  public Fitter priorVariance(double variance) {
    if (!(variance >= 0 && variance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "priorVariance = " + variance + ": give a finite value >= 0 (0: maximum likelihood)");
    }
    this.priorVariance = variance;
    return this;
  }

  /** Examples per iteration |B| (default: the method's); more than N is cut to N. */
  public Fitter batch(int examples) {
    this.batch = positive("batch", examples);
    return this;
  }

  /** Classes sampled per example |S| (default: the method's); more than K − 1 is cut to K − 1. */
  public Fitter sampled(int classes) {
    this.sampled = positive("sampled", classes);
    return this;
  }

  /**
   * Sampled classes drawn per example or one set shared by each mini-batch. Default: shared for a
   * factorized model under the stopping rule, else per example, as the papers draw them.
   */
  public Fitter sampling(Sampling sampling) {
    this.sampling = Objects.requireNonNull(sampling, "sampling");
    return this;
  }

  /** Sample classes ∝ (count + 1)^{@code power} with importance weights; 0 (default): uniformly. */
  public Fitter samplingPower(double power) {
    if (!(power >= 0 && power < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "samplingPower = " + power + ": give a finite value >= 0 (0: uniform)");
    }
    this.samplingPower = power;
    return this;
  }

  /** The step: adaptive (the A&R methods' default) or plain SGD. */
  public Fitter step(Step step) {
    this.step = Objects.requireNonNull(step, "step");
    return this;
  }

  /**
   * The initial step size: the adaptive step's ρ₀, or the SGD learning rate (default: the
   * method's).
   */
  public Fitter learningRate(double rate) {
    if (!(rate > 0 && rate < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("learningRate = " + rate + ": give a finite value > 0");
    }
    this.learningRate = rate;
    return this;
  }

  /** The double-sum methods' ridge μ (default: 0). */
  public Fitter ridge(double mu) {
    if (!(mu > 0 && mu < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("ridge = " + mu + ": give a finite value > 0");
    }
    this.ridge = mu;
    return this;
  }

  /** Worker threads (default: one per core). */
  public Fitter threads(int threads) {
    this.threads = positive("threads", threads);
    return this;
  }

  /** The seed (default: 1): a run is reproducible for a seed and a thread count. */
  public Fitter seed(long seed) {
    this.seed = seed;
    return this;
  }

  /**
   * The stopping rule's tolerance: an epoch whose watched value improves by less than this,
   * relative, counts as no progress (default: 1e-4); the full-batch solver stops once an iteration
   * changes its objective by at most this, relative (default: 1e-10).
   */
  public Fitter tolerance(double tolerance) {
    if (!(tolerance >= 0 && tolerance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("tolerance = " + tolerance + ": give a finite value >= 0");
    }
    this.tolerance = tolerance;
    return this;
  }

  /** Epochs without progress in a row that make a plateau (default: 3). */
  public Fitter patience(int epochs) {
    this.patience = positive("patience", epochs);
    return this;
  }

  /**
   * The most epochs the stopping rule runs (default: 100); the full-batch solver's most passes over
   * the data, line-search trials included (default: 20,000).
   */
  public Fitter maxEpochs(int epochs) {
    this.maxEpochs = positive("maxEpochs", epochs);
    return this;
  }

  /**
   * The most times a plateau divides the step size by 5 before the run is converged (default: 4).
   */
  public Fitter stepReductions(int reductions) {
    if (reductions < 0) {
      throw new IllegalArgumentException(
          "stepReductions = " + reductions + ": give 0 or more (0: a plateau ends the run)");
    }
    this.stepReductions = reductions;
    return this;
  }

  /**
   * The most seconds the run takes, checked after each epoch (the full-batch solver: each
   * iteration, its prior's path included); the automatic method choice keeps to it too (default:
   * {@value #DEFAULT_SECONDS} s; a run of fixed length has no limit).
   */
  public Fitter maxSeconds(double seconds) {
    if (!(seconds > 0)) {
      throw new IllegalArgumentException("maxSeconds = " + seconds + ": give a value > 0");
    }
    this.maxSeconds = seconds;
    return this;
  }

  /**
   * Holds out this fraction of the training rows, drawn with the seed: the stopping rule watches
   * their exact mean log-likelihood, the stochastic methods return the model of the epoch that was
   * best on them, and the full-batch solver chooses its prior variance on them. 0 holds out
   * nothing.
   *
   * <p>By default, for the softmax link with no prior variance or ridge given and no fixed length,
   * {@value #HELD_OUT_FRACTION} of the rows are held out, at least {@value #MIN_HELD_OUT_ROWS} but
   * never more than a fifth of them, and at most {@value #MAX_HELD_OUT_ROWS}. A prior or ridge
   * given is the objective, which the training rows decide; the probit and logistic links' exact
   * log-likelihood is a quadrature too costly to watch, so their rule watches the epoch's bound.
   */
  public Fitter validationFraction(double fraction) {
    if (!(fraction >= 0 && fraction < 1)) {
      throw new IllegalArgumentException(
          "validationFraction = " + fraction + ": give a value in [0, 1) (0: none held out)");
    }
    this.validationFraction = fraction;
    return this;
  }

  /** Exactly this many passes over the rows, instead of the stopping rule. */
  public Fitter epochs(int epochs) {
    this.epochs = positive("epochs", epochs);
    return this;
  }

  /** Exactly this many iterations, instead of the stopping rule. */
  public Fitter iterations(int iterations) {
    this.iterations = positive("iterations", iterations);
    return this;
  }

  /**
   * A model to go on from (a previous fit's, or one loaded), of the kind, link and shape this fit
   * makes; it is trained in place.
   */
  public Fitter init(ScoreModel model) {
    this.init = Objects.requireNonNull(model, "model");
    return this;
  }

  /** Told of the choices made and of each epoch. */
  public Fitter listener(FitListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * Asked between iterations whether to stop: once it answers true, {@link #fit} throws {@link
   * CancellationException} and returns no model.
   */
  public Fitter cancelWhen(BooleanSupplier cancelled) {
    this.cancelled = Objects.requireNonNull(cancelled, "cancelled");
    return this;
  }

  /**
   * Fits a model to {@code train}, in this JVM.
   *
   * @throws IllegalArgumentException when the settings contradict each other or do not apply to the
   *     method, or the data do not suit it; the message says which and the fix
   * @throws org.largecat.train.TrainingDivergedException when the objective became NaN or infinite
   * @throws CancellationException when {@link #cancelWhen} said so
   */
  public Fit fit(Dataset train) {
    Objects.requireNonNull(train, "train");
    if (train.rows() == 0) {
      throw new IllegalArgumentException("the training set has no rows");
    }
    Kernels kernels = Kernels.get();
    AutomaticMethod chosen = chooseMethod(train, kernels);
    if (chosen.method().isFullBatch()) {
      return new FullBatchFit(this, kernels, chosen.estimatedSeconds()).fit(train);
    }
    InMemoryRows rows = new InMemoryRows(train);
    return method == null && !Double.isNaN(chosen.estimatedSeconds())
        ? new ChosenStochasticFit(this, chosen, kernels).fit(rows)
        : new StochasticFit(this, chosen.method(), kernels).fit(rows);
  }

  /**
   * Fits a model to rows that live elsewhere (the {@code spark} module's partitions), with a
   * sampled-bound method: the automatic choice is A&R.
   */
  public Fit fit(TrainingRows train) {
    Objects.requireNonNull(train, "train");
    if (train.rows() == 0) {
      throw new IllegalArgumentException("the training set has no rows");
    }
    Method chosen = method;
    if (chosen == null) {
      chosen = arMethod();
      listener.note(
          "chose "
              + chosen.label()
              + ": the rows are partitioned, and the full-batch solver runs in one JVM");
    }
    return new StochasticFit(this, chosen, Kernels.get()).fit(train);
  }

  /** A fitter with these settings, to change without changing this one. */
  Fitter copy() {
    Fitter copy = new Fitter(link);
    copy.method = method;
    copy.rank = rank;
    copy.priorVariance = priorVariance;
    copy.batch = batch;
    copy.sampled = sampled;
    copy.sampling = sampling;
    copy.samplingPower = samplingPower;
    copy.step = step;
    copy.learningRate = learningRate;
    copy.ridge = ridge;
    copy.threads = threads;
    copy.seed = seed;
    copy.tolerance = tolerance;
    copy.patience = patience;
    copy.maxEpochs = maxEpochs;
    copy.stepReductions = stepReductions;
    copy.maxSeconds = maxSeconds;
    copy.validationFraction = validationFraction;
    copy.epochs = epochs;
    copy.iterations = iterations;
    copy.init = init;
    copy.listener = listener;
    copy.cancelled = cancelled;
    return copy;
  }

  /** The method given, else the automatic choice on {@code train}, said to the listener. */
  private AutomaticMethod chooseMethod(Dataset train, Kernels kernels) {
    if (method != null) {
      if (method.link() != link) {
        throw new IllegalArgumentException(
            method.label() + " fits a " + method.link() + " model, not the " + link + " asked for");
      }
      return new AutomaticMethod(method, "given");
    }
    List<String> given = stochasticOnlySettings();
    String stochasticOnly = String.join(", ", given);
    AutomaticMethod choice =
        link != Link.SOFTMAX
            ? new AutomaticMethod(arMethod(), "A&R is the method for the " + link + " link")
            : given.equals(List.of("rank"))
                ? AutomaticMethod.chooseFactorized(
                    train.rows(),
                    train.classes(),
                    rank,
                    threads(),
                    budget(),
                    () ->
                        new StochasticFit(this, Method.EXACT_SOFTMAX_SGD, kernels)
                            .secondsPerEpoch(new InMemoryRows(train)))
                : !stochasticOnly.isEmpty()
                    ? new AutomaticMethod(
                        Method.AR_SOFTMAX,
                        stochasticOnly + " set, which exact-softmax does not take")
                    : AutomaticMethod.choose(
                        train,
                        threads(),
                        budget(),
                        priorVariance == null && heldOutFraction(train.rows()) > 0,
                        kernels);
    listener.note("chose " + choice.method().label() + ": " + choice.reason());
    return choice;
  }

  private Method arMethod() {
    return switch (link) {
      case SOFTMAX -> Method.AR_SOFTMAX;
      case PROBIT -> Method.AR_PROBIT;
      case LOGISTIC -> Method.AR_LOGISTIC;
    };
  }

  /** The settings given that only the stochastic methods take. */
  List<String> stochasticOnlySettings() {
    List<String> given = new ArrayList<>();
    addIf(given, batch != null, "batch");
    addIf(given, sampled != null, "sampled");
    addIf(given, step != null, "step");
    addIf(given, learningRate != null, "learningRate");
    addIf(given, sampling != null, "sampling");
    addIf(given, samplingPower != 0, "samplingPower");
    addIf(given, epochs != null, "epochs");
    addIf(given, iterations != null, "iterations");
    addIf(given, rank != null, "rank");
    addIf(given, patience != null, "patience");
    addIf(given, stepReductions != null, "stepReductions");
    addIf(given, ridge != null, "ridge");
    return given;
  }

  static void addIf(List<String> names, boolean given, String name) {
    if (given) {
      names.add(name);
    }
  }

  /**
   * The share of {@code rows} training rows to hold out: the one given, else the default's when it
   * applies (see {@link #validationFraction}), else 0.
   */
  double heldOutFraction(long rows) {
    if (validationFraction != null) {
      return validationFraction;
    }
    if (fixedLength() || priorVariance != null || ridge != null || link != Link.SOFTMAX) {
      return 0;
    }
    double held =
        Math.min(
            Math.max(HELD_OUT_FRACTION * rows, Math.min(MIN_HELD_OUT_ROWS, rows / 5.0)),
            MAX_HELD_OUT_ROWS);
    return held < 1 ? 0 : held / rows;
  }

  /**
   * The sampling given, else shared for a factorized model under the stopping rule: a batch sharing
   * its classes is scored and differentiated by gemms through the rank-wide tables, which on
   * kjv-nextword at rank 100 ran an epoch several times as fast as per-example sets, with as good a
   * held-out log-likelihood per epoch; else per example.
   */
  Sampling sampling() {
    if (sampling != null) {
      return sampling;
    }
    return rank != null && !fixedLength() ? Sampling.SHARED : Sampling.PER_EXAMPLE;
  }

  /** The most seconds a fit under the stopping rule takes: the one given, else the default. */
  double budget() {
    return Objects.requireNonNullElse(maxSeconds, DEFAULT_SECONDS);
  }

  int threads() {
    return Objects.requireNonNullElse(threads, Runtime.getRuntime().availableProcessors());
  }

  long seed() {
    return Objects.requireNonNullElse(seed, 1L);
  }

  /** Whether {@link #epochs} or {@link #iterations} set the run's length. */
  boolean fixedLength() {
    return epochs != null || iterations != null;
  }

  /**
   * The stopping rule of these settings for {@code method}: {@link StoppingRule#AVERAGED}'s where
   * none is given and the method averages its iterates, else {@link StoppingRule#DEFAULT}'s.
   */
  StoppingRule rule(Method method) {
    StoppingRule d =
        DoubleSumSpec.averagesByDefault(method) ? StoppingRule.AVERAGED : StoppingRule.DEFAULT;
    return new StoppingRule(
        Objects.requireNonNullElse(tolerance, d.tolerance()),
        Objects.requireNonNullElse(patience, d.patience()),
        Objects.requireNonNullElse(maxEpochs, d.maxEpochs()),
        budget(),
        Objects.requireNonNullElse(stepReductions, d.stepReductions()));
  }

  /** Throws {@link CancellationException} once {@link #cancelWhen} says so. */
  void checkCancelled() {
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("the fit was cancelled; no model was made");
    }
  }

  private static int positive(String setting, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(setting + " = " + value + ": give 1 or more");
    }
    return value;
  }
}
