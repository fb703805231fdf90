package org.largecat.fit;

import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.eval.Evaluation;
import org.largecat.eval.NonFiniteScoreException;
import org.largecat.kernel.Kernels;
import org.largecat.model.FactorizedModel;
import org.largecat.model.LinearModel;
import org.largecat.model.ScoreModel;
import org.largecat.train.SampledSpec;
import org.largecat.train.Trainer;
import org.largecat.train.TrainerSpec;
import org.largecat.train.TrainingDivergedException;
import org.largecat.train.sampled.FactorizedTrainers;

/** Training rows held in this JVM as a {@link Dataset}, trained by the trainers on its threads. */
record InMemoryRows(Dataset data) implements TrainingRows {

  @Override
  public long rows() {
    return data.rows();
  }

  @Override
  public int classes() {
    return data.classes();
  }

  @Override
  public int columns() {
    return data.columns();
  }

  @Override
  public Trainer trainer(ScoreModel model, TrainerSpec spec, Kernels kernels) {
    return switch (model) {
      case FactorizedModel factorized when spec instanceof SampledSpec sampled ->
          FactorizedTrainers.create(data, factorized, sampled, kernels);
      case FactorizedModel factorized ->
          throw new IllegalArgumentException(
              spec.method().label()
                  + " fits the linear model; the sampled-bound methods fit a"
                  + " factorized one");
      case LinearModel linear -> Trainers.create(data, linear, spec, kernels);
    };
  }

  @Override
  public Watch watch(ScoreModel model, int count, long seed, int threads, Kernels kernels) {
    Dataset sample = count >= data.rows() ? data : Preprocessing.sample(data, count, seed);
    return new Watch() {
      private int evaluations;

      @Override
      public int rows() {
        return sample.rows();
      }

      @Override
      public double getAsDouble() {
        evaluations++;
        try {
          return Evaluation.evaluate(model, sample, kernels, 1, threads).meanLogLikelihood();
        } catch (NonFiniteScoreException e) {
          throw new TrainingDivergedException(
              "a score of the rows the stopping rule watches became non-finite after epoch "
                  + evaluations
                  + " ("
                  + e.getMessage()
                  + "); the model diverged and must not be used");
        }
      }
    };
  }

  @Override
  public TrainingRows[] holdOut(double fraction, long seed) {
    Dataset[] split = Preprocessing.holdOut(data, fraction, seed);
    return new TrainingRows[] {new InMemoryRows(split[0]), new InMemoryRows(split[1])};
  }
}
