package org.largecat.experiments;

import java.io.IOException;
import org.largecat.Labelled;

/**
 * The experiments of {@code largecat reproduce}, by name: each runs end to end and puts the paper's
 * figures beside ours.
 */
public enum Experiment implements Labelled {
  AR_SYNTHETIC(
      "ar-synthetic",
      "A&R §4.1: bound and probability error of A&R vs OVE on the K = 10⁴ toy set",
      ArSynthetic::run),
  AR_REAL(
      "ar-real",
      "A&R Tables 2–3, Figure 2: exact, OVE, A&R softmax / probit / logistic on fashion-mnist and kjv-nextword",
      ArReal::run),
  AR_LINEAR(
      "ar-linear",
      "A&R Tables 2–3 in shape on generated linear softmax data with known truth (K = 200)",
      ArReal::linear),
  VOCAB(
      "vocab",
      "Big vocabularies: A&R softmax on the linear and the rank-100 factorized model, per-example"
          + " and shared sampling, beside fastText's hierarchical softmax on kjv-nextword",
      Vocab::run),
  DOUBLE_SUM(
      "double-sum",
      "unbiased-scalable-softmax Table 3, Figures 1-2: OVE, NCE, IS, SGD, U-max, Implicit SGD;"
          + " log-loss relative to Implicit SGD's on generated sets, fashion-mnist and kjv-nextword",
      DoubleSum::run),
  CB_BMA(
      "cb-bma",
      "CB Table G.1, Figure 1: BMA weight on CBC and mean KL to the truth of CBC / CBM / BMA on App. G.1.1 data",
      CbBma::run),
  CB_TIME(
      "cb-time",
      "CB Figure 3: holdout log-likelihood and accuracy against time, IB-CAVI vs softmax ML"
          + " (detergent, glass, letter, simulated)",
      CbTime::run),
  CB_GLASS(
      "cb-glass",
      "CB Table G.3: glass identification, 10 random 90/10 splits, IB-CAVI CBC / CBM probit and logit",
      CbGlass::run),
  SYNTH_FIDELITY(
      "synth-fidelity",
      "Synthetic-data paper, model (1): fidelity of synthetic users (marginal TV, Cramér's V,"
          + " Σ shrinkage) from vem, laplace, importance and beta-prior (§5.4) fits",
      SynthFidelity::run),
  QUICK(
      "quick",
      "the quick forms of every experiment that runs on generated data: a few minutes, no dataset needed",
      QuickTour::run);

  /** Runs one experiment: writes its tables and figures under {@link ExperimentSettings#out()}. */
  @FunctionalInterface
  interface Runner {
    ExperimentResult run(ExperimentSettings settings) throws IOException;
  }

  private final String label;
  private final String summary;
  private final Runner runner;

  Experiment(String label, String summary, Runner runner) {
    this.label = label;
    this.summary = summary;
    this.runner = runner;
  }

  @Override
  public String label() {
    return label;
  }

  /** One line on what it reproduces. */
  public String summary() {
    return summary;
  }

  /** Runs it and writes every table as CSV and JSON into {@code settings.out()}. */
  public ExperimentResult run(ExperimentSettings settings) throws IOException {
    ExperimentResult result = produce(settings);
    for (ResultTable table : result.tables()) {
      settings.err().println("reproduce " + label + ": " + table.write(settings.out()));
    }
    return result;
  }

  /** Runs it, writing its figures but not its tables: a part of a larger experiment. */
  ExperimentResult produce(ExperimentSettings settings) throws IOException {
    return runner.run(settings);
  }

  /** Returns the experiment with this command-line name. */
  public static Experiment byLabel(String label) {
    return Labelled.byLabel(Experiment.class, label, "experiment");
  }
}
