package org.largecat.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CbMetrics;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.CbSimulation;
import org.largecat.cb.Design;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.data.Dataset;
import org.largecat.eval.Evaluation;
import org.largecat.fit.Trainers;
import org.largecat.kernel.Kernels;
import org.largecat.model.LinearModel;
import org.largecat.model.Link;
import org.largecat.train.Method;
import org.largecat.train.SampledSpec;
import org.largecat.train.StepSizeSchedule;
import org.largecat.train.StoppingRule;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingRun;

/**
 * categorical-from-binary Figure 3 (and G.2): holdout log-likelihood and accuracy against training
 * time. IB-CAVI for CB-probit and CB-logit (N(0, I) prior, from B = 0), read at the posterior mean
 * through whichever of CBC and CBM has the larger training likelihood (App. G.4.3's stand-in for
 * BMA), against softmax maximum likelihood, which here replaces the paper's NUTS, Gibbs and ADVI
 * baselines: the exact-softmax-sgd trainer, full batch, from B = 0, with the A&R adaptive step
 * (rho0 = {@value #SOFTMAX_RHO0}). Training time excludes the holdout evaluations. Sets: the
 * prepared detergent (App. G.4.1), glass and letter, and a G.1.1 simulated set with sigma_high^2 =
 * 2 (App. G.4.1); the quick form runs a small simulated set only. The paper gives curves, not
 * numbers, so the table has no paper columns. Each method runs until its budget of seconds is spent
 * or, for IB-CAVI, its ELBO has converged; softmax ML keeps to its budget, so that its curve spans
 * the same time as the paper's baselines, and its row says whether the experiments' stopping rule
 * would have called its last iterations (full-batch: each an epoch) converged.
 */
public final class CbTime {
  /** Figure 3's axes: time on a log scale, y ticks with at most three decimals. */
  private static final Plots.Axes LOG_TIME = new Plots.Axes(true, false, Double.NaN, "0.###");

  /**
   * rho0 of the softmax trainer's adaptive step: the A&R value 0.02 moves B = 0 too slowly for
   * these small sets.
   */
  static final double SOFTMAX_RHO0 = 0.1;

  private static final int MAX_CAVI_ITERATIONS = 500;

  /**
   * Untimed runs of a method on the same set before its timed one, for this long or the set's
   * budget if shorter, so that its time is not JIT compilation and first-call set-up (the first 50
   * IB-CAVI iterations on detergent take longer than the next 450).
   */
  private static final double WARM_UP_SECONDS = 2;

  private CbTime() {}

  /** A set to run on, with each method's training-time budget in seconds. */
  private record Problem(String name, Dataset train, Dataset test, double seconds) {}

  /**
   * A method's timed run: the holdout evaluations until it stops or has trained for the seconds
   * given.
   */
  @FunctionalInterface
  private interface Fit {
    Trace run(double seconds);
  }

  /** The holdout evaluations of a run, and how it ended. */
  private record Trace(List<Point> points, RunEnd end) {}

  /**
   * One holdout evaluation: iterations and training seconds so far, mean log-likelihood, accuracy.
   */
  private record Point(int iterations, double seconds, double logLikelihood, double accuracy) {}

  static ExperimentResult run(ExperimentSettings settings) throws IOException {
    List<Problem> problems = new ArrayList<>();
    if (settings.quick()) {
      problems.add(simulated("simulated-small", 2000, 6, 12, 1));
    } else {
      problems.add(prepared(settings, "detergent", 10));
      problems.add(prepared(settings, "glass", 5));
      problems.add(prepared(settings, "letter", 30));
      problems.add(simulated("simulated-large", 20_000, 30, 60, 30));
    }
    ResultTable table =
        new ResultTable(
            "cb-time",
            List.of(
                "dataset",
                "n_train",
                "n_test",
                "k",
                "m",
                "method",
                "iterations",
                "stopped_because",
                "converged",
                "seconds",
                "test_loglik",
                "test_accuracy",
                "best_test_loglik",
                "seconds_at_best"));
    List<Path> figures = new ArrayList<>();
    Kernels kernels = Kernels.get();
    PrintStream err = settings.err();
    for (Problem problem : problems) {
      int threads = settings.threads();
      Map<String, Fit> fits = new LinkedHashMap<>();
      fits.put(
          "IB-CAVI CB-probit",
          seconds -> cavi(problem, org.largecat.cb.Link.PROBIT, seconds, threads, kernels));
      fits.put(
          "IB-CAVI CB-logit",
          seconds -> cavi(problem, org.largecat.cb.Link.LOGIT, seconds, threads, kernels));
      fits.put(
          "softmax ML (exact full-batch)", seconds -> softmax(problem, seconds, threads, kernels));
      Map<String, Trace> traces = new LinkedHashMap<>();
      for (Map.Entry<String, Fit> fit : fits.entrySet()) {
        long warmedUp =
            System.nanoTime() + (long) (Math.min(WARM_UP_SECONDS, problem.seconds()) * 1e9);
        while (System.nanoTime() < warmedUp) {
          fit.getValue().run((warmedUp - System.nanoTime()) * 1e-9);
        }
        traces.put(fit.getKey(), fit.getValue().run(problem.seconds()));
      }
      Map<String, double[][]> logLikelihood = new LinkedHashMap<>();
      Map<String, double[][]> accuracy = new LinkedHashMap<>();
      for (Map.Entry<String, Trace> e : traces.entrySet()) {
        List<Point> trace = e.getValue().points();
        double[] seconds = trace.stream().mapToDouble(Point::seconds).toArray();
        logLikelihood.put(
            e.getKey(),
            new double[][] {seconds, trace.stream().mapToDouble(Point::logLikelihood).toArray()});
        accuracy.put(
            e.getKey(),
            new double[][] {seconds, trace.stream().mapToDouble(Point::accuracy).toArray()});
        Point last = trace.get(trace.size() - 1);
        Point best =
            trace.stream()
                .max((a, b) -> Double.compare(a.logLikelihood(), b.logLikelihood()))
                .orElseThrow();
        table.add(
            problem.name(),
            problem.train().rows(),
            problem.test().rows(),
            problem.train().classes(),
            problem.train().columns(),
            e.getKey(),
            last.iterations(),
            e.getValue().end().stoppedBecause(),
            e.getValue().end().converged(),
            last.seconds(),
            last.logLikelihood(),
            last.accuracy(),
            best.logLikelihood(),
            best.seconds());
        err.printf(
            "  cb-time %s %s: %d iterations, %.2f s, holdout log-lik %.4f, accuracy %.4f%n",
            problem.name(),
            e.getKey(),
            last.iterations(),
            last.seconds(),
            last.logLikelihood(),
            last.accuracy());
      }
      String shape =
          String.format(
              Locale.ROOT,
              "%s (K = %d, M = %d, N = %d)",
              problem.name(),
              problem.train().classes(),
              problem.train().columns(),
              problem.train().rows() + problem.test().rows());
      figures.addAll(
          Plots.panels(
              List.of(
                  new Plots.Panel(
                      shape + ": holdout log-likelihood (Figure 3)",
                      "training seconds (log scale)",
                      "mean holdout log-likelihood",
                      logLikelihood,
                      LOG_TIME,
                      false),
                  new Plots.Panel(
                      shape + ": holdout accuracy",
                      "training seconds (log scale)",
                      "holdout accuracy",
                      accuracy,
                      LOG_TIME,
                      false)),
              2,
              settings.out().resolve("cb-time-" + problem.name())));
    }
    return ExperimentResult.of(table, figures);
  }

  private static Problem prepared(ExperimentSettings settings, String name, double seconds)
      throws IOException {
    Dataset[] sets = PreparedSets.read(settings.data(), name);
    return new Problem(name, PreparedSets.dense(sets[0]), PreparedSets.dense(sets[1]), seconds);
  }

  /** App. G.1.1 data with sigma_high^2 = 2 (App. G.4.1), 80/20 split. */
  private static Problem simulated(
      String name, int rows, int classes, int covariates, double seconds) {
    CbSimulation sim =
        CbSimulation.generate(rows, classes, covariates, Math.sqrt(2), Math.sqrt(0.001), 0.5, 1);
    int trainRows = (int) Math.round(0.8 * rows);
    return new Problem(
        name,
        sim.data().subset(IntStream.range(0, trainRows).toArray()),
        sim.data().subset(IntStream.range(trainRows, rows).toArray()),
        seconds);
  }

  /**
   * IB-CAVI, evaluated after every iteration until the budget is spent or an iteration raised the
   * ELBO by at most 1e-6 of itself (the engine's default tolerance).
   */
  private static Trace cavi(
      Problem problem, org.largecat.cb.Link link, double budget, int threads, Kernels kernels) {
    Dataset train = problem.train();
    Dataset test = problem.test();
    int k = train.classes();
    Design trainDesign = Design.withIntercept(train.features(), kernels);
    Design testDesign = Design.withIntercept(test.features(), kernels);
    List<Point> trace = new ArrayList<>();
    long start = System.nanoTime();
    double trained = 0;
    try (IbCavi run =
        IbCavi.start(
            train,
            GaussianPrior.isotropic(train.columns() + 1, 1),
            CaviOptions.of(link).withThreads(threads),
            kernels)) {
      CaviOptions defaults = CaviOptions.of(link);
      double previous = Double.NEGATIVE_INFINITY;
      boolean converged = false;
      for (int t = 0; t < MAX_CAVI_ITERATIONS && trained < budget; t++) {
        double elbo = run.iterate();
        converged = elbo - previous <= defaults.tolerance() * Math.abs(elbo);
        if (converged) {
          break;
        }
        previous = elbo;
        trained += (System.nanoTime() - start) * 1e-9;
        CbPredictor predictor = new CbPredictor(run.posterior(), kernels);
        CbPredictor.Predictions fitted = predictor.plugIn(trainDesign);
        boolean cbc =
            CbMetrics.meanLogLikelihood(fitted.cbc(), k, train.labels())
                >= CbMetrics.meanLogLikelihood(fitted.cbm(), k, train.labels());
        CbPredictor.Predictions p = predictor.plugIn(testDesign);
        double[] logp = cbc ? p.cbc() : p.cbm();
        trace.add(
            new Point(
                t + 1,
                trained,
                CbMetrics.meanLogLikelihood(logp, k, test.labels()),
                CbMetrics.accuracy(logp, k, test.labels())));
        start = System.nanoTime();
      }
      TrainingRun.Stop stop =
          converged
              ? TrainingRun.Stop.CONVERGED
              : trained >= budget ? TrainingRun.Stop.MAX_SECONDS : TrainingRun.Stop.MAX_EPOCHS;
      return new Trace(trace, RunEnd.stopped(trace.size(), stop));
    }
  }

  /**
   * The exact-softmax-sgd trainer on the whole training set at every step, with the adaptive step
   * at rho0 = {@value #SOFTMAX_RHO0}, to build on.
   */
  static SampledSpec.Builder fullBatchSoftmax(Dataset train, int threads) {
    return SampledSpec.builder(Method.EXACT_SOFTMAX_SGD)
        .batch(train.rows())
        .sampled(1)
        .threads(threads)
        .stepSize(new StepSizeSchedule.Adaptive(SOFTMAX_RHO0, 0.9, 2000, 0.1));
  }

  /**
   * Softmax maximum likelihood, evaluated after iterations 1, 2, 3, 4, 6, 8, ... (x 1.25) until the
   * budget is spent.
   */
  private static Trace softmax(Problem problem, double budget, int threads, Kernels kernels) {
    Dataset train = problem.train();
    LinearModel model = LinearModel.zeros(Link.SOFTMAX, train.classes(), train.columns());
    SampledSpec options = fullBatchSoftmax(train, threads).build();
    List<Point> trace = new ArrayList<>();
    StoppingRule.Watch watch = RunEnd.watch();
    double trained = 0;
    int done = 0;
    int next = 1;
    try (Trainer trainer = Trainers.create(train, model, options, kernels)) {
      while (trained < budget) {
        long start = System.nanoTime();
        for (; done < next; done++) {
          watch.epoch(trainer.step());
        }
        trained += (System.nanoTime() - start) * 1e-9;
        Evaluation.Result r = Evaluation.evaluate(model, problem.test(), kernels, 1, threads);
        trace.add(new Point(done, trained, r.meanLogLikelihood(), r.accuracy()));
        next = Math.max(next + 1, (int) Math.ceil(next * 1.25));
      }
    }
    return new Trace(trace, RunEnd.judged(done, TrainingRun.Stop.MAX_SECONDS, watch));
  }
}
