package org.largecat.train;

import java.util.function.DoubleSupplier;
import org.largecat.data.Dataset;
import org.largecat.data.Preprocessing;
import org.largecat.eval.Evaluation;
import org.largecat.eval.NonFiniteScoreException;
import org.largecat.kernel.Kernels;
import org.largecat.model.Link;
import org.largecat.model.ScoreModel;

/**
 * What the stopping rule watches for the softmax's sampled-bound methods unless told otherwise
 * ({@link #watchedFor}): the exact mean log-likelihood, over all K classes, of a fixed random
 * sample of training rows, still trained on.
 *
 * <p>Not the epoch's mean of the trainer's own estimate: with many classes that is no signal. A&R
 * softmax's Eq. 8 estimate at an η_n from the example's last visit, an epoch old, is about e^Δ for
 * Δ the change of its log partition since, and a few examples with Δ in the tens make the epoch
 * mean −10⁹ and below where the exact value is −7 an example. The same rows every epoch, so that
 * two epochs differ by the fit's change and not by which rows were drawn.
 *
 * <p>As many rows as make their K scores each about the epoch's scores (N·(|S| + 1), or N·K for the
 * exact step), so that watching costs a fraction of an epoch (exact scores are gemms or gathers
 * over whole rows, faster per score than the sampled step's), within [{@value #MIN_ROWS}, {@value
 * #MAX_ROWS}] and at most N.
 */
public final class WatchedTrainingRows implements DoubleSupplier {
  /** The fewest rows watched, unless the set has fewer. */
  public static final int MIN_ROWS = 1_000;

  /** The most rows watched. */
  public static final int MAX_ROWS = 10_000;

  /**
   * Whether the rule watches training rows for {@code method}: the softmax link's sampled-bound
   * methods. Not probit and logistic, whose exact log-likelihood is a quadrature of hundreds of
   * K-wide passes an example, and whose A&R estimates hold no exponential of a stale term; nor the
   * double-sum methods, whose weights at an epoch's end jitter with their one-class steps by about
   * 1% of the log-likelihood, which the epoch's mean of their bound averages out.
   */
  public static boolean watchedFor(Method method) {
    return method.link() == Link.SOFTMAX && !method.isDoubleSum() && !method.isFullBatch();
  }

  private final ScoreModel model;
  private final Dataset rows;
  private final Kernels kernels;
  private final int threads;
  private int evaluations;

  /**
   * Watches {@code model}, trained in place on {@code train} with {@code options}, on {@link
   * #rowsFor} of its rows drawn with the options' seed, evaluated with their threads.
   */
  public WatchedTrainingRows(
      ScoreModel model, Dataset train, TrainingOptions options, Kernels kernels) {
    this.model = model;
    this.rows =
        Preprocessing.sample(
            train, rowsFor(train.rows(), train.classes(), options), options.seed());
    this.kernels = kernels;
    this.threads = options.threads();
  }

  /** The rows watched of a training set of {@code rows} examples and K {@code classes}. */
  public static int rowsFor(long rows, int classes, TrainingOptions options) {
    long scored =
        options.method() == Method.EXACT_SOFTMAX_SGD
            ? classes
            : Math.min(classes, options.sampled() + 1L);
    return (int) Math.min(rows, Math.clamp(rows * scored / classes, MIN_ROWS, MAX_ROWS));
  }

  /** The rows watched. */
  public int rows() {
    return rows.rows();
  }

  /**
   * The model's mean log-likelihood of the watched rows now.
   *
   * @throws TrainingDivergedException when a score of theirs is NaN or infinite
   */
  @Override
  public double getAsDouble() {
    evaluations++;
    try {
      return Evaluation.evaluate(model, rows, kernels, 1, threads).meanLogLikelihood();
    } catch (NonFiniteScoreException e) {
      throw new TrainingDivergedException(
          "a score of the training rows the stopping rule watches became non-finite after epoch "
              + evaluations
              + " ("
              + e.getMessage()
              + "); the model diverged and must not be used");
    }
  }
}
