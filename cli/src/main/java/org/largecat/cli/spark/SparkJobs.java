package org.largecat.cli.spark;

import java.io.IOException;
import java.util.function.DoubleSupplier;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.largecat.cb.CaviFit;
import org.largecat.cb.CaviOptions;
import org.largecat.cb.CbPredictor;
import org.largecat.cb.GaussianPrior;
import org.largecat.cb.IbCavi;
import org.largecat.eval.Evaluation;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;
import org.largecat.spark.cb.CbEvaluation;
import org.largecat.spark.cb.DistributedCavi;
import org.largecat.spark.data.Inputs;
import org.largecat.spark.data.LabeledFrame;
import org.largecat.spark.eval.DistributedEvaluation;
import org.largecat.spark.train.DistributedTrainer;
import org.largecat.train.Trainer;
import org.largecat.train.TrainingOptions;
import org.largecat.train.TrainingRun;
import org.largecat.train.WatchedTrainingRows;
import org.largecat.train.sampled.FactorizedTrainer;
import org.largecat.train.sampled.SampledTrainer;

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

  /**
   * A run of a sampled trainer: the trained model, the run, the training rows the stopping rule
   * watched (null when it watched the bound or nothing), and its test scores (or null).
   */
  public record Train(
      ScoreModel model,
      TrainingRun run,
      int iterationsPerEpoch,
      Integer watchedRows,
      Evaluation.Result test) {}

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
   * seed}, and the CBC, CBM and BMA scores on {@code test} (null: on {@code train}).
   */
  public static Cavi cavi(
      SparkRun run,
      InputSpec train,
      InputSpec test,
      CaviOptions options,
      double priorVariance,
      int samples,
      long seed)
      throws IOException {
    return within(
        run,
        spark -> {
          LabeledFrame data = read(spark, run, train);
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
   * How a run is driven: for a fixed length, or under the stopping rule watching {@code
   * watchedRows}, the exact mean log-likelihood of a fixed sample of the training rows, or the
   * epoch-mean bound when it is null ({@link WatchedTrainingRows#watchedFor}).
   */
  public interface Drive {
    TrainingRun run(Trainer trainer, DoubleSupplier watchedRows);
  }

  /**
   * The training rows the stopping rule watches for {@code options}' method ({@link
   * WatchedTrainingRows}): a seeded sample of the frame, cached; null when the rule watches the
   * epoch-mean bound.
   */
  private static org.apache.spark.sql.Dataset<Row> watchedRows(
      LabeledFrame data, DistributedTrainer trainer, TrainingOptions options) {
    if (!WatchedTrainingRows.watchedFor(options.method())) {
      return null;
    }
    int rows = WatchedTrainingRows.rowsFor(trainer.rows(), data.classes(), options);
    return data.frame()
        .sample(false, Math.min(1, 1.1 * rows / trainer.rows()), options.seed())
        .limit(rows)
        .cache();
  }

  /**
   * Trains the model of {@code options}' method (linear, or factorized of width {@code rank} when
   * it is not null) from its random start, driven by {@code drive} in rounds of {@code
   * roundsPerEpoch} an epoch, and scores it on {@code test} (null: none).
   */
  public static Train train(
      SparkRun run,
      InputSpec train,
      InputSpec test,
      TrainingOptions options,
      Integer rank,
      int roundsPerEpoch,
      Drive drive)
      throws IOException {
    return within(
        run,
        spark -> {
          LabeledFrame data = read(spark, run, train);
          ScoreModel model;
          if (rank == null) {
            LinearModel linear =
                LinearModel.zeros(options.method().link(), data.classes(), data.columns());
            SampledTrainer.initialise(linear, options);
            model = linear;
          } else {
            model = FactorizedTrainer.initialModel(data.classes(), data.columns(), options, rank);
          }
          TrainingRun done;
          int perEpoch;
          Integer watchedCount = null;
          try (DistributedTrainer trainer =
              new DistributedTrainer(
                  data.frame(),
                  LabeledFrame.LABEL,
                  LabeledFrame.FEATURES,
                  model,
                  options,
                  roundsPerEpoch)) {
            perEpoch = trainer.iterationsPerEpoch();
            org.apache.spark.sql.Dataset<Row> watched = watchedRows(data, trainer, options);
            try {
              done =
                  drive.run(
                      trainer,
                      watched == null
                          ? null
                          : () ->
                              DistributedEvaluation.evaluate(
                                      watched, LabeledFrame.LABEL, LabeledFrame.FEATURES, model, 1)
                                  .meanLogLikelihood());
              if (watched != null && done.stoppedBecause() != TrainingRun.Stop.ITERATIONS) {
                watchedCount = (int) watched.count(); // the cached sample the rule evaluated
              }
            } finally {
              if (watched != null) {
                watched.unpersist();
              }
            }
          }
          Evaluation.Result scores =
              test == null
                  ? null
                  : DistributedEvaluation.evaluate(
                      read(spark, run, test.withShape(data.columns(), data.classes())).frame(),
                      LabeledFrame.LABEL,
                      LabeledFrame.FEATURES,
                      model,
                      TOP_K);
          return new Train(model, done, perEpoch, watchedCount, scores);
        });
  }

  private interface Job<T> {
    T run(SparkSession spark) throws IOException;
  }

  /**
   * Runs {@code job} in a session for {@code run}, stopped afterwards; a failure of a Spark job
   * becomes its cause, the data or usage error the command reports.
   */
  private static <T> T within(SparkRun run, Job<T> job) throws IOException {
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
