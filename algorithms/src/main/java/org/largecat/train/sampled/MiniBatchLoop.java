package org.largecat.train.sampled;

import java.util.List;
import java.util.concurrent.Callable;
import org.largecat.train.SampledSpec;
import org.largecat.train.TrainingThreads;

/**
 * The iteration the sampled trainers share: the next mini-batch of the epoch's permutation ({@link
 * BatchOrder}), phase one split across threads by example, each thread giving its share of the
 * batch's Σ_B L̂_n, the batch's slots bucketed by row, the step of the iteration set ({@link
 * RowUpdate#prepare}), and phase two split across threads by row. Both phases read the model as the
 * batch found it. A trainer's mode ({@link Mode}) says what each phase does.
 */
final class MiniBatchLoop implements AutoCloseable {
  /** What one mode of a trainer does in each part of an iteration. */
  interface Mode {
    /** On the calling thread, before phase one: shared mode draws its class set here. */
    default void beforeExamples() {}

    /** Phase one for thread {@code thread}'s share of the batch; returns its part of Σ_B L̂_n. */
    double examples(int thread);

    /** On the calling thread, between the phases: the batch's slots bucketed by row. */
    default void betweenPhases() {}

    /** Phase two for thread {@code thread}'s share of the rows. */
    void update(int thread);
  }

  private final int rows;
  final BatchOrder batches;
  final RowUpdate rowUpdate;
  final TrainingThreads threads;
  private final double[] boundSums;
  private final List<Callable<Void>> examplePhase;
  private final List<Callable<Void>> updatePhase;
  private Mode mode;
  private int iteration;

  /** The product of the step reductions of {@link #scaleStepSize}. */
  private double stepScale = 1;

  /** For {@code options}' batches and step on {@code rows} examples, on {@code threads} threads. */
  MiniBatchLoop(int rows, SampledSpec options, int threads) {
    this.rows = rows;
    batches = new BatchOrder(rows, options.batch(), options.seed());
    rowUpdate = new RowUpdate(options, rows);
    this.threads = new TrainingThreads(threads);
    boundSums = new double[threads];
    examplePhase = this.threads.phase(t -> boundSums[t] = mode.examples(t));
    updatePhase = this.threads.phase(t -> mode.update(t));
  }

  /** Iterations per epoch: ⌈N / |B|⌉. */
  int iterationsPerEpoch() {
    return (rows + batches.examples.length - 1) / batches.examples.length;
  }

  void scaleStepSize(double factor) {
    stepScale *= factor;
  }

  /** Iterations begun so far, the current one included. */
  int iteration() {
    return iteration;
  }

  /** Where thread {@code thread}'s chunk of the current batch starts. */
  int chunkStart(int thread) {
    return threads.shareStart(batches.size, thread);
  }

  /** Runs one iteration of {@code mode} and returns its estimate (N/|B|) Σ_B L̂_n. */
  double step(Mode mode) {
    this.mode = mode;
    iteration++;
    batches.next();
    mode.beforeExamples();
    threads.run(examplePhase);
    mode.betweenPhases();
    rowUpdate.prepare(iteration, batches.epoch(), batches.size, stepScale);
    threads.run(updatePhase);
    double sum = 0;
    for (double threadSum : boundSums) {
      sum += threadSum;
    }
    return rows / (double) batches.size * sum;
  }

  @Override
  public void close() {
    threads.close();
  }
}
