package org.largecat.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.largecat.eval.Evaluation;
import org.largecat.fit.Fit;
import org.largecat.kernel.Kernels;
import org.largecat.synth.CovarianceRecovery;
import org.largecat.synth.FidelityReport;

/**
 * What each command prints with {@code --json}, one record per command: {@link
 * org.largecat.json.Json} writes a component {@code testLoglik} as the key {@code test_loglik}, and
 * NaN, infinities and null as null.
 */
final class JsonOutputs {
  private JsonOutputs() {}

  /**
   * {@code train} and {@code spark train}: batch and sampled are the sizes used (1 and 1 for the
   * one-pair methods, N and K − 1 for exact-softmax); trainBound is the trainer's estimate of its
   * lower bound on the log-likelihood per training example, averaged over the last epoch (loose at
   * many classes: the exact value is watchedLoglik); for exact-softmax iterations are L-BFGS
   * iterations, epochs the passes over the data and trainBound the objective of the saved model,
   * per example. priorVariance is the model's prior (0: maximum likelihood), priorReason why
   * (given, or chosen on the held-out rows), priorPath the variances tried with their held-out
   * log-likelihoods. watched is what the stopping rule watched ({@link org.largecat.fit.Watched}:
   * {@code objective} for exact-softmax), null for a run of fixed length; when it watched rows,
   * watchedLoglik is their mean log-likelihood after the last epoch and watchedRows their number,
   * both null otherwise. The test scores are null without {@code --test}.
   */
  record Train(
      String method,
      String backend,
      int batch,
      int sampled,
      int iterations,
      double epochs,
      String stoppedBecause,
      Boolean converged,
      double seconds,
      double secondsPerEpoch,
      double trainBound,
      String watched,
      Double watchedLoglik,
      Integer watchedRows,
      double priorVariance,
      String priorReason,
      List<Fit.Trial> priorPath,
      Double testLoglik,
      Double testAccuracy,
      Double testTop5) {

    /** The summary of {@code fit} on {@code kernels}, with its {@code test} scores or none. */
    static Train of(Fit fit, Kernels kernels, Evaluation.Result test) {
      return new Train(
          fit.method().label(),
          kernels.describeChoice(),
          fit.batch(),
          fit.sampled(),
          fit.iterations(),
          fit.epochs(),
          fit.stoppedBecause().name().toLowerCase(Locale.ROOT),
          fit.converged(),
          fit.seconds(),
          fit.secondsPerEpoch(),
          fit.bound(),
          fit.watched() == null ? null : fit.watched().json(),
          fit.watchedLogLikelihood(),
          fit.watchedRows(),
          fit.prior().variance(),
          fit.prior().reason(),
          fit.prior().path(),
          test == null ? null : test.meanLogLikelihood(),
          test == null ? null : test.accuracy(),
          test == null ? null : test.topKAccuracy());
    }
  }

  /** {@code evaluate}: train's names for the same scores. */
  record Evaluate(double testLoglik, double testAccuracy, double testTop5, int examples) {}

  /**
   * {@code tune}: the best rate (null when every rate overflowed) and each rate's training
   * log-loss.
   */
  record Tune(
      String method,
      int rows,
      String score,
      int scoredRows,
      double bestLearningRate,
      List<RateResult> results) {}

  /** One learning rate of {@code tune}; the log-loss null when it overflowed. */
  record RateResult(double learningRate, double logLoss) {}

  /**
   * {@code cavi}: the ELBO trace, the BMA weight, and CBC, CBM and BMA scored on the set {@code
   * evaluatedOn} names.
   */
  record Cavi(
      String link,
      boolean diagonal,
      int rows,
      int features,
      int classes,
      String backend,
      int threads,
      double[] elbo,
      double elboPerCell,
      int iterations,
      boolean converged,
      double fitSeconds,
      double[] iterationSeconds,
      int samples,
      double logEvidenceCbc,
      double logEvidenceCbm,
      double weightCbc,
      String evaluatedOn,
      ModelScores cbc,
      ModelScores cbm,
      ModelScores bma) {}

  /**
   * One model of {@code cavi}: mean log-likelihood per row, accuracy, mean KL from the truth (null
   * without truth).
   */
  record ModelScores(double meanLoglik, double accuracy, double meanKl) {}

  /**
   * {@code synth report}: the fidelity summary, per-item TV, both V matrices; Σ's recovery, null
   * without --truth.
   */
  record SynthReport(
      int realUsers,
      int syntheticUsers,
      int items,
      double maxMarginalTv,
      double meanAbsCramersVDifference,
      double maxAbsCramersVDifference,
      double[] marginalTv,
      double[][] cramersVReal,
      double[][] cramersVSynthetic,
      SigmaRecovery sigmaRecovery) {
    static SynthReport of(FidelityReport f, CovarianceRecovery recovery) {
      return new SynthReport(
          f.realUsers(),
          f.syntheticUsers(),
          f.items(),
          f.maxMarginalDistance(),
          f.meanAbsCramersVDifference(),
          f.maxAbsCramersVDifference(),
          f.marginalDistances(),
          rows(f.realCramersV(), f.items()),
          rows(f.syntheticCramersV(), f.items()),
          recovery == null ? null : SigmaRecovery.of(recovery));
    }
  }

  /**
   * How well {@code synth report --model} recovers the Σ of {@code --truth} ({@link
   * CovarianceRecovery}).
   */
  record SigmaRecovery(
      double traceRatio,
      double slope,
      double correlation,
      double meanVarianceRatio,
      double alignmentResidual,
      double[][] sigmaTrue,
      double[][] sigmaAligned) {
    static SigmaRecovery of(CovarianceRecovery r) {
      return new SigmaRecovery(
          r.traceRatio(),
          r.slope(),
          r.correlation(),
          r.meanVarianceRatio(),
          r.alignmentResidual(),
          rows(r.trueCovariance(), r.latent()),
          rows(r.alignedCovariance(), r.latent()));
    }
  }

  /** An n x n row-major matrix as its rows: JSON's array of arrays. */
  private static double[][] rows(double[] rowMajor, int n) {
    double[][] rows = new double[n][];
    for (int i = 0; i < n; i++) {
      rows[i] = Arrays.copyOfRange(rowMajor, i * n, (i + 1) * n);
    }
    return rows;
  }
}
