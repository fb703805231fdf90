package org.largecat.train;

import java.io.Serializable;
import java.util.Objects;

/**
 * Settings of a sampled-bound trainer run.
 *
 * @param method the bound to maximise
 * @param batch examples per iteration |B|
 * @param sampled classes sampled per example |S| (ignored by exact softmax, which uses all K − 1)
 * @param seed the seed; a run is reproducible bit for bit (shared sampling with dense x: for a seed
 *     and thread count)
 * @param threads worker threads (≥ 1)
 * @param stepSize the adaptive schedule of the global step
 * @param weightScale standard deviation of the initial weights (paper: 0.1)
 * @param biasScale standard deviation of the initial biases (paper: 0.001)
 * @param samplingPower 0 to sample classes uniformly (the paper), or p > 0 to sample them ∝ (count
 *     + 1)^p with importance weights (the class sampler of {@code train.sampled})
 * @param sampling per-example class sets or one set shared by each mini-batch
 * @param priorVariance 0 for maximum likelihood (the paper), or σ² > 0 of a N(0, σ²) prior on every
 *     weight and bias (MAP)
 */
public record TrainingOptions(
    Method method,
    int batch,
    int sampled,
    long seed,
    int threads,
    StepSizeSchedule stepSize,
    double weightScale,
    double biasScale,
    double samplingPower,
    Sampling sampling,
    double priorVariance)
    implements Serializable {

  public TrainingOptions {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(sampling, "sampling");
    Objects.requireNonNull(stepSize, "stepSize");
    if (batch < 1 || sampled < 1 || threads < 1) {
      throw new IllegalArgumentException(
          "batch = "
              + batch
              + ", sampled = "
              + sampled
              + ", threads = "
              + threads
              + ": each must be >= 1");
    }
    if (!(weightScale >= 0 && weightScale < Double.POSITIVE_INFINITY)
        || !(biasScale >= 0 && biasScale < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "weightScale = "
              + weightScale
              + " and biasScale = "
              + biasScale
              + " must be finite and >= 0");
    }
    if (!(priorVariance >= 0 && priorVariance < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "priorVariance = " + priorVariance + " must be finite and >= 0");
    }
    if (!(samplingPower >= 0 && samplingPower < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "samplingPower = " + samplingPower + " must be finite and >= 0");
    }
  }

  /**
   * The papers' settings for {@code method}, all cores: A&R §4 (|B| = 500, |S| = 100, the adaptive
   * schedule); NCE and IS as unbiased-scalable-softmax §4.1 (n = 100, m = 5, plain SGD ×0.9 per
   * epoch); the double-sum methods plain SGD, isgd-batch with n = m = 5 (--batch and --sampled are
   * its n and m; the one-pair methods ignore them). The SGD learning rate here is a placeholder for
   * the caller's.
   */
  public static TrainingOptions defaults(Method method) {
    int threads = Runtime.getRuntime().availableProcessors();
    StepSizeSchedule sgd = new StepSizeSchedule.Sgd(0.01, 0.9);
    return switch (method) {
      case NCE, IMPORTANCE_SAMPLING ->
          new TrainingOptions(
              method, 100, 5, 1, threads, sgd, 0.1, 0.001, 0, Sampling.PER_EXAMPLE, 0);
      case DOUBLE_SUM_SGD, UMAX, IMPLICIT_SGD, IMPLICIT_SGD_BATCH, UMAX_RAMAN ->
          new TrainingOptions(method, 5, 5, 1, threads, sgd, 0, 0, 0, Sampling.PER_EXAMPLE, 0);
      default ->
          new TrainingOptions(
              method,
              500,
              100,
              1,
              threads,
              StepSizeSchedule.PAPER,
              0.1,
              0.001,
              0,
              Sampling.PER_EXAMPLE,
              0);
    };
  }

  /**
   * The initial learning rate of the plain SGD schedule (×0.9 per epoch) when none is given: for
   * the methods compared in unbiased-scalable-softmax, the median over its seven datasets of the
   * tuned rates of its Table 2 (ove 10, nce 10³, is 10², sgd 10⁻³, umax and umax-raman 10⁻², isgd
   * and isgd-batch 0.1); 0.01 for the A&R bounds. {@code largecat tune} finds the value for the
   * problem at hand.
   */
  public static double defaultSgdLearningRate(Method method) {
    return switch (method) {
      case OVE -> 10;
      case NCE -> 1e3;
      case IMPORTANCE_SAMPLING -> 1e2;
      case DOUBLE_SUM_SGD -> 1e-3;
      case UMAX, UMAX_RAMAN -> 1e-2;
      case IMPLICIT_SGD, IMPLICIT_SGD_BATCH -> 0.1;
      default -> 0.01;
    };
  }

  /**
   * These options with plain SGD at {@code learningRate}, ×0.9 per epoch (unbiased-scalable-softmax
   * §4.1), and, for OVE, NCE and IS, that paper's n = 100 datapoints and m = 5 classes per
   * iteration.
   */
  public TrainingOptions withPlainSgd(double learningRate) {
    TrainingOptions sgd = withStepSize(new StepSizeSchedule.Sgd(learningRate, 0.9));
    return method == Method.OVE || method == Method.NCE || method == Method.IMPORTANCE_SAMPLING
        ? sgd.withBatch(100, 5)
        : sgd;
  }

  public TrainingOptions withBatch(int batch, int sampled) {
    return new TrainingOptions(
        method,
        batch,
        sampled,
        seed,
        threads,
        stepSize,
        weightScale,
        biasScale,
        samplingPower,
        sampling,
        priorVariance);
  }

  public TrainingOptions withSeed(long seed) {
    return new TrainingOptions(
        method,
        batch,
        sampled,
        seed,
        threads,
        stepSize,
        weightScale,
        biasScale,
        samplingPower,
        sampling,
        priorVariance);
  }

  public TrainingOptions withThreads(int threads) {
    return new TrainingOptions(
        method,
        batch,
        sampled,
        seed,
        threads,
        stepSize,
        weightScale,
        biasScale,
        samplingPower,
        sampling,
        priorVariance);
  }

  public TrainingOptions withSamplingPower(double samplingPower) {
    return new TrainingOptions(
        method,
        batch,
        sampled,
        seed,
        threads,
        stepSize,
        weightScale,
        biasScale,
        samplingPower,
        sampling,
        priorVariance);
  }

  public TrainingOptions withPriorVariance(double priorVariance) {
    return new TrainingOptions(
        method,
        batch,
        sampled,
        seed,
        threads,
        stepSize,
        weightScale,
        biasScale,
        samplingPower,
        sampling,
        priorVariance);
  }

  public TrainingOptions withSampling(Sampling sampling) {
    return new TrainingOptions(
        method,
        batch,
        sampled,
        seed,
        threads,
        stepSize,
        weightScale,
        biasScale,
        samplingPower,
        sampling,
        priorVariance);
  }

  public TrainingOptions withStepSize(StepSizeSchedule stepSize) {
    return new TrainingOptions(
        method,
        batch,
        sampled,
        seed,
        threads,
        stepSize,
        weightScale,
        biasScale,
        samplingPower,
        sampling,
        priorVariance);
  }
}
