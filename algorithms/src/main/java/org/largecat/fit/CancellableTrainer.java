package org.largecat.fit;

import org.largecat.train.Trainer;

/** A trainer that asks the {@link Fitter}'s cancellation before each iteration. */
record CancellableTrainer(Trainer trainer, Fitter settings) implements Trainer {
  @Override
  public double step() {
    settings.checkCancelled();
    return trainer.step();
  }

  @Override
  public int iterationsPerEpoch() {
    return trainer.iterationsPerEpoch();
  }

  @Override
  public void scaleStepSize(double factor) {
    trainer.scaleStepSize(factor);
  }

  @Override
  public void close() {
    trainer.close();
  }
}
