package org.largecat.cli.spark;

import java.io.IOException;
import java.util.function.BiConsumer;
import org.apache.spark.sql.SparkSession;
import org.largecat.cb.CaviFit;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.eval.Evaluation;
import org.largecat.fit.Fit;
import org.largecat.fit.Fitter;
import org.largecat.model.ScoreModel;
import org.largecat.spark.cb.CbEvaluation;
import org.largecat.spark.cb.DistributedCavi;
import org.largecat.spark.data.Inputs;
import org.largecat.spark.data.LabeledFrame;
import org.largecat.spark.eval.DistributedEvaluation;
import org.largecat.spark.train.PartitionedRows;

/**
 * The work of the {@code largecat spark} commands, each in a session of its own: read the data
 * where they are ({@link Inputs}), run the data-parallel stage, stop the session. A failure inside
 * a Spark job (a bad line of a data file, a bad row) reaches the command as the exception the
 * single-machine code would have thrown, not as Spark's wrapper.
 */
public final class SparkJobs {
  /** Evaluation's top-k, as {@code largecat evaluate} reports it. */
  private static final int TOP_K = 5;

  private SparkJobs() {}

  /**
   * A run of IB-CAVI: the fit, its evidence bounds, the data's shape and the holdout scores on the
   * test set (or the training set when none was given).
   */
  public record Cavi(
      CaviFit fit,
      CbPredictor.ModelEvidence evidence,
      long rows,
      int columns,
      int classes,
      double fitSeconds,
      CbEvaluation.Scores scores) {}

  /** A fit on the cluster and its test scores (or null). */
  public record Train(Fit fit, Evaluation.Result test) {}

  /** {@code model}'s test log-likelihood, accuracy and top-5 on {@code test}. */
  public static Evaluation.Result evaluate(SparkRun run, ScoreModel model, InputSpec test)
      throws IOException {
    return within(
        run,
        spark ->
            DistributedEvaluation.evaluate(
                read(spark, run, test).frame(),
                LabeledFrame.LABEL,
                LabeledFrame.FEATURES,
                model,
                TOP_K));
  }

  /**
   * IB-CAVI on {@code train} under an N(0, {@code priorVariance} I) prior (timed from caching the
   * rows to the last iteration), the BMA evidence from {@code samples} draws seeded with {@code
   * seed}, and the CBC, CBM and BMA scores on {@code test} (null: on {@code train}). {@code
   * checkShape} is given D and K once the training set is read, before the fit.
   */
  public static Cavi cavi(
      SparkRun run,
      InputSpec train,
      InputSpec test,
      CaviOptions options,
      double priorVariance,
      int samples,
      long seed,
      BiConsumer<Integer, Integer> checkShape)
      throws IOException {
    return within(
        run,
        spark -> {
          LabeledFrame data = read(spark, run, train);
          checkShape.accept(data.columns(), data.classes());
          long start = System.nanoTime();
          try (DistributedCavi cavi =
              DistributedCavi.start(
                  data.frame(),
                  LabeledFrame.LABEL,
                  LabeledFrame.FEATURES,
                  data.columns(),
                  data.classes(),
                  GaussianPrior.isotropic(data.columns() + 1, priorVariance),
                  options)) {
            CaviFit fit = IbCavi.iterate(cavi, options);
            double fitSeconds = (System.nanoTime() - start) * 1e-9;
            CbPredictor.ModelEvidence evidence = cavi.evidence(samples, seed);
            LabeledFrame scored =
                test == null
                    ? data
                    : read(spark, run, test.withShape(data.columns(), data.classes()));
            return new Cavi(
                fit,
                evidence,
                cavi.cells() / data.classes(),
                data.columns(),
                data.classes(),
                fitSeconds,
                CbEvaluation.evaluate(
                    scored.frame(),
                    LabeledFrame.LABEL,
                    LabeledFrame.FEATURES,
                    fit.posterior().state(),
                    priorVariance,
                    evidence));
          }
        });
  }

  /**
   * Fits {@code fitter}'s model on the rows of {@code train} where they are, in rounds of {@code
   * roundsPerEpoch} an epoch, and scores it on {@code test} (null: none).
   */
  public static Train train(
      SparkRun run, InputSpec train, InputSpec test, Fitter fitter, int roundsPerEpoch)
      throws IOException {
    return within(
        run,
        spark -> {
          LabeledFrame data = read(spark, run, train);
          Fit fit =
              fitter.fit(
                  PartitionedRows.of(
                      data.frame(),
                      LabeledFrame.LABEL,
                      LabeledFrame.FEATURES,
                      data.classes(),
                      data.columns(),
                      roundsPerEpoch));
          Evaluation.Result scores =
              test == null
                  ? null
                  : DistributedEvaluation.evaluate(
                      read(spark, run, test.withShape(data.columns(), data.classes())).frame(),
                      LabeledFrame.LABEL,
                      LabeledFrame.FEATURES,
                      fit.model(),
                      TOP_K);
          return new Train(fit, scores);
        });
  }

  private interface Job<T> {
    T run(SparkSession spark) throws IOException;
  }

  /**
   * Runs {@code job} in a session for {@code run}, stopped afterwards; a failure of a Spark job
   * becomes its cause, the data or usage error the command reports, with where Spark's log is
   * ({@link SparkLog}).
   */
  private static <T> T within(SparkRun run, Job<T> job) throws IOException {
    SparkLog log = SparkLog.configure(run.debug());
    try {
      T result = inSession(run, job);
      log.discard();
      return result;
    } catch (IOException e) {
      throw log.explain(e);
    } catch (IllegalArgumentException e) {
      throw log.explain(e);
    }
  }

  private static <T> T inSession(SparkRun run, Job<T> job) throws IOException {
    SparkSession spark = SparkSessions.start(run);
    try {
      return job.run(spark);
    } catch (Exception e) { // Spark's jobs throw SparkException, a checked exception, unchecked
      for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
        if (t instanceof IOException io) {
          throw io;
        }
        if (t instanceof IllegalArgumentException bad) {
          throw bad;
        }
      }
      if (e instanceof IOException io) {
        throw io;
      }
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getMessage(), e);
    } finally {
      spark.stop();
    }
  }

  /** The rows of {@code input}, in the run's partitions when it names a number. */
  private static LabeledFrame read(SparkSession spark, SparkRun run, InputSpec input)
      throws IOException {
    int partitions =
        run.partitions() != null ? run.partitions() : spark.sparkContext().defaultParallelism();
    LabeledFrame data =
        Inputs.read(spark, input.path(), input.format(), input.options(), partitions);
    if (run.partitions() != null && input.format().textFormat() == null) {
      return new LabeledFrame(
          data.frame().repartition(run.partitions()), data.columns(), data.classes());
    }
    return data;
  }
}
